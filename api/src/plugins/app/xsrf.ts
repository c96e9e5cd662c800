import { randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { CSRF_FAILED, XSRF_COOKIE, XSRF_HEADER } from '@portal/contract';
import { forbidden } from '../../lib/http-errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
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
          sameSite: 'lax',
          httpOnly: false,
          // request.protocol believes X-Forwarded-Proto only from a trusted proxy (TRUST_PROXY).
          secure: request.protocol === 'https',
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
