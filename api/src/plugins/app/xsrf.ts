import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CSRF_FAILED, XSRF_COOKIE, XSRF_HEADER } from '@portal/contract';
import { crossSiteCookieAttributes } from '@portal/service-kit';
import { forbidden } from '../../lib/http-errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The cookie's SameSite and Secure for the origin the request came to. The portal's /lti/ pages
 * run inside a learning platform's iframe, a third-party context, where the browser neither sets
 * nor sends a Lax cookie: every write of an embedded launch would be refused. So None + Secure
 * where browsers keep it (https, loopback http), as the launch's cookies; Lax on other plain http.
 * None does not weaken the check: another site's request still cannot read the cookie to echo it.
 */
function cookieAttributes(request: FastifyRequest) {
  try {
    // request.protocol believes X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
    return crossSiteCookieAttributes(`${request.protocol}://${request.hostname}`);
  } catch {
    return { secure: false, sameSite: 'lax' as const };
  }
}

/**
 * Double-submit XSRF (docs/architecture.md): the cookie is readable by our page only, so a
 * request that echoes it in a header came from our page, not from a cross-site form.
 */
export const xsrfPlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      const cookie = request.cookies[XSRF_COOKIE];
      if (!cookie) {
        reply.setCookie(XSRF_COOKIE, randomBytes(32).toString('hex'), {
          path: '/',
          httpOnly: false,
          ...cookieAttributes(request),
        });
      }
      if (SAFE_METHODS.has(request.method) || request.is404) return;
      if (request.routeOptions.config.xsrf === false) return;
      const header = request.headers[XSRF_HEADER.toLowerCase()];
      if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
        throw forbidden(CSRF_FAILED);
      }
    });
  },
  { name: 'xsrf', dependencies: ['access'] },
);
