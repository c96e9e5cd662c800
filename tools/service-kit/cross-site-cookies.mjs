// Cookies a page needs inside another site's frame (a learning platform's iframe): only
// `SameSite=None` comes back there, and browsers take None only with `Secure`. Browsers keep
// `Secure` cookies on https and on the "potentially trustworthy" loopback origins (Chromium and
// Firefox: http://localhost, *.localhost, 127.0.0.0/8, [::1]), so the development stack on
// loopback behaves as production on https. On any other plain http host a Secure cookie would be
// dropped outright, so those keep `Lax`.

const LOOPBACK_HOST = /^(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether browsers keep `SameSite=None; Secure` cookies set by `url`'s origin. */
export function keepsCrossSiteCookies(url) {
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || (protocol === 'http:' && LOOPBACK_HOST.test(hostname));
}

/** The attributes of such a cookie for `url`'s origin: None + Secure where kept, else Lax. */
export function crossSiteCookieAttributes(url) {
  return keepsCrossSiteCookies(url)
    ? { secure: true, sameSite: 'none' }
    : { secure: false, sameSite: 'lax' };
}
