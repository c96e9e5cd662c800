import type { CookieSerializeOptions } from '@fastify/cookie';
import { crossSiteCookieAttributes } from '@portal/service-kit';

/**
 * Options of the cookies a launch needs (the login state, the launch's browser binding, the
 * broker's binding). They are set and read on requests the platform's page starts: a cross-site
 * form post, and inside the platform's iframe, a third-party context. Only `SameSite=None` comes
 * back there, and browsers take None only with `Secure`, so: None + Secure when the portal is
 * served over https, and on http on loopback (localhost, 127.0.0.1: browsers keep Secure cookies
 * there, so the development and e2e stacks embed as production does); Lax on other plain http
 * hosts, where None would be dropped outright.
 */
export function launchCookieOptions(
  portalUrl: string,
  { path, maxAgeSeconds }: { path: string; maxAgeSeconds?: number },
): CookieSerializeOptions {
  return {
    path,
    httpOnly: true,
    ...crossSiteCookieAttributes(portalUrl),
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
  };
}
