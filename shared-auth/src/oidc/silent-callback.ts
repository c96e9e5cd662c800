/**
 * Run this in the page served at SILENT_CALLBACK_PATH (the hidden prompt=none iframe). It hands
 * the authorization response to the parent window, which finishes the sign-in itself; the settings
 * are never used by the callback, they only satisfy the constructor.
 */
export async function handleSilentCallback(url: string = window.location.href): Promise<void> {
  // Loaded here, not at the top: shared-auth is one shared module, and a static import would put
  // the library into every first visit (create-user-manager.ts).
  const { UserManager } = await import('oidc-client-ts');
  const manager = new UserManager({
    authority: window.location.origin,
    client_id: 'silent-callback',
    redirect_uri: url,
  });
  await manager.signinSilentCallback(url);
}

/**
 * A self-contained `silent-check-sso.html` for hosts that would rather not ship a script bundle
 * into the iframe. It posts the same message oidc-client-ts 3 posts from signinSilentCallback
 * (a test keeps the two in step).
 */
export const SILENT_CHECK_SSO_HTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>Silent sign-in</title></head>
<body><script>
window.parent.postMessage({ source: 'oidc-client', url: window.location.href, keepOpen: false }, window.location.origin);
</script></body></html>
`;
