// Which of the host's answers may be framed, and by whom (frame-ancestors; every other answer
// keeps the policy's 'none'). Learning platforms show LTI launches in an iframe (Canvas, Moodle's
// "Embed", Brightspace), so the /lti/ pages — the launch screens and the return page of their
// sign-in, /lti/auth/callback — may be framed by the registered platforms' origins.

/**
 * @param {{
 *   csp: Record<string, string[]>,
 *   silentCheckScriptHashes: string[],
 *   ltiFrameAncestors: { directive(): string[] },
 * }} options `silentCheckScriptHashes`: the CSP hashes of silent-check-sso.html's inline script.
 * @returns the static server's `cspByPath` and `cspByPrefix`
 */
export function hostCspOverrides({ csp, silentCheckScriptHashes, ltiFrameAncestors }) {
  // The identity provider's prompt=none answer lands on silent-check-sso.html inside the portal's
  // own hidden iframe; its one inline script hands the answer to the portal window.
  const silentCheck = (frameAncestors) => ({
    frameAncestors,
    scriptSrc: [...csp.scriptSrc, ...silentCheckScriptHashes],
  });
  const platforms = () => ltiFrameAncestors.directive().filter((source) => source !== "'none'");
  return {
    cspByPath: { '/silent-check-sso.html': silentCheck(["'self'"]) },
    cspByPrefix: {
      // The same iframe of an LTI page inside the platform's frame: frame-ancestors is checked
      // against every ancestor, the platform's page on top too. (Before '/lti/', which it is under.)
      '/lti/silent-check-sso.html': () => silentCheck(["'self'", ...platforms()]),
      '/lti/': () => ({ frameAncestors: ltiFrameAncestors.directive() }),
    },
  };
}
