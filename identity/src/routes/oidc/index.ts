import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { isBrokeredAuthorization, withFrameAncestors } from '../../http/brokered-framing';
import { handOver } from '../../http/hand-over';

/**
 * oidc-provider below the realm path: every URL there that no route of ours claims (discovery,
 * authorization, token, logout, device …). Mounted the way Express does it: the library reads
 * its mount path from `originalUrl` and routes on the rest of `url`. Bodies are left unread for
 * it (http/forms.ts); it parses its own.
 */
export async function oidcRoutes(
  app: FastifyInstance,
  { provider, mountPath, securityHeaders, brokeredLogins, platformFrameOrigins }: IdentityContext,
) {
  const policy = securityHeaders.headers.get('Content-Security-Policy');
  const callback = provider.callback();
  // The library reads its own bodies (token, device, logout forms): nothing is parsed here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  const forward = (request: FastifyRequest, reply: FastifyReply): void => {
    // A launch's brokered sign-in inside the platform's frame: its redirects may be framed there.
    const platforms = platformFrameOrigins?.directive().filter((source) => source !== "'none'") ?? [];
    if (policy && platforms.length > 0 && isBrokeredAuthorization(mountPath, brokeredLogins, request.url)) {
      reply.raw.setHeader('Content-Security-Policy', withFrameAncestors(policy, platforms));
    }
    const { req, res } = handOver(request, reply, securityHeaders);
    const original = req.url ?? '/';
    const inner = original.slice(mountPath.length);
    Object.assign(req, { originalUrl: original });
    req.url = inner.startsWith('/') ? inner : `/${inner}`;
    void callback(req, res);
  };

  app.all(mountPath, forward);
  app.all(`${mountPath}/*`, forward);
}
