import type { FastifyReply, FastifyRequest } from 'fastify';

import type { UserRecord } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { SSO_SESSION_MAX_SECONDS } from '../../oidc/provider';

/**
 * Signs the user in at the provider, so the portal's next authorization request needs no
 * password: the library's own session cookie, signed with its keys, exactly as its login would
 * set it. The cookie lands in the reply's headers, next to any the route sets.
 */
export async function startProviderSession({ provider }: IdentityContext, request: FastifyRequest, reply: FastifyReply, user: UserRecord) {
  const session = new provider.Session();
  session.loginAccount({ accountId: user.id, amr: ['pwd'] });
  await session.save(SSO_SESSION_MAX_SECONDS);
  const { cookies } = provider.app.createContext(request.raw, reply.raw);
  const sessionCookie = (provider as unknown as { cookieName(type: string): string }).cookieName('session');
  cookies.set(sessionCookie, session.jti, {
    httpOnly: true,
    sameSite: 'lax',
    signed: true,
    expires: new Date((session.exp ?? Math.floor(Date.now() / 1000) + SSO_SESSION_MAX_SECONDS) * 1000),
  });
  // Koa wrote them onto the raw response; Fastify would replace them with its own Set-Cookie.
  const written = reply.raw.getHeader('set-cookie');
  reply.raw.removeHeader('set-cookie');
  for (const cookie of [written ?? []].flat()) reply.header('Set-Cookie', String(cookie));
}
