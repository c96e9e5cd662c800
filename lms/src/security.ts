import type { FastifyReply } from 'fastify';
import { securityHeaders } from '@portal/service-kit';

/**
 * The stand-in's browser security headers. Every response gets the strict set (no framing, our
 * own scripts and styles only); two kinds of page get a variant, set by their route:
 * - pages of the launch that run inside the embedded launch's frame (the auth response), which
 *   only our own course page may frame;
 * - the embedded launch page itself, which frames the tool.
 */
export function lmsSecurityHeaders(portalOrigin: string, frameOrigins: string[]) {
  const csp = {
    defaultSrc: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    // Our files only: /assets/autosubmit.js (the OIDC form_post and deep linking forms) and
    // /assets/lti-storage.js (the embedded launch's postMessage storage).
    scriptSrc: ["'self'"],
    // The launch buttons redirect to the portal; the auth response posts there.
    formAction: ["'self'", portalOrigin],
  };
  const strict = securityHeaders({ csp: { ...csp, frameAncestors: ["'none'"] }, referrerPolicy: 'no-referrer' });
  const framedBySelf = securityHeaders({ csp: { ...csp, frameAncestors: ["'self'"] }, referrerPolicy: 'no-referrer' });
  const embedding = securityHeaders({
    // 'self': the login passes through our /lti/auth inside the frame.
    csp: { ...csp, frameSrc: ["'self'", ...frameOrigins], frameAncestors: ["'none'"] },
    referrerPolicy: 'no-referrer',
    // The tool opens its own windows (the simulator) from the frame; they keep their opener.
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
  });
  const apply = (set: typeof strict) => (reply: FastifyReply) => {
    for (const [name, value] of set.headers) reply.header(name, value);
  };
  return { onSend: strict.onSend, framedBySelf: apply(framedBySelf), embedding: apply(embedding) };
}

export type LmsSecurityHeaders = ReturnType<typeof lmsSecurityHeaders>;
