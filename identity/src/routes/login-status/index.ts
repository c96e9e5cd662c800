import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { securityHeaders } from '@portal/service-kit';

import type { IdentityContext } from '../../context';
import { allowOnly } from '../../http/methods';
import { CLIENT_ID, ROUTES } from '../../oidc/provider';
import { LOGIN_STATUS_SCRIPT_HASH, loginStatusPage } from './page';

/**
 * `{realm}/protocol/openid-connect/login-status-iframe.html`, where Keycloak serves its
 * `check_session_iframe`. Public (it reveals nothing but "changed" or not, to the registered
 * origins only), framed by those origins only, and it runs its one script and nothing else.
 */
export async function loginStatusRoutes(app: FastifyInstance, { mountPath, frontendOrigins }: IdentityContext) {
  const body = loginStatusPage({ clientIds: [CLIENT_ID], origins: frontendOrigins, cookiePath: mountPath });
  const policy = securityHeaders({
    csp: {
      defaultSrc: ["'none'"],
      scriptSrc: [LOGIN_STATUS_SCRIPT_HASH],
      frameAncestors: frontendOrigins,
      formAction: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
  });
  const headers = { ...Object.fromEntries(policy.headers), 'Cache-Control': 'no-store' };
  const show = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.headers(headers).type('text/html; charset=utf-8').send(body);
  allowOnly(app, `${mountPath}${ROUTES.check_session_iframe}`, { GET: show, HEAD: show });
}
