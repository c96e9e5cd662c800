import type { RequestListener, Server } from 'node:http';

import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';

import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

import { requestIdOptions, serveMetrics, serveReadiness } from '@portal/service-kit';

import type { IdentityContext } from '../context';
import { adminRoutes } from '../routes/admin';
import { brokerRoutes } from '../routes/broker';
import { devOutboxRoutes } from '../routes/dev-outbox';
import { healthRoutes } from '../routes/health';
import { interactionRoutes } from '../routes/interactions';
import { loginStatusRoutes } from '../routes/login-status';
import { oidcRoutes } from '../routes/oidc';
import { setPasswordRoutes } from '../routes/set-password';
import { userinfoRoutes } from '../routes/userinfo';
import { brokeredSignInFraming } from './brokered-framing';
import { answerError } from './errors';
import { acceptForms } from './forms';
import { logRequests } from './request-log';

/** The admin client joins paths to `…/users/` (JAX-RS, behind Keycloak, ignores the slash). */
function withoutAdminTrailingSlash(adminPath: string) {
  return (url: string): string => {
    const [path = '', ...query] = url.split('?');
    if (!path.startsWith(`${adminPath}/`)) return url;
    return [path.replace(/\/+$/, ''), ...query].join('?');
  };
}

/**
 * The provider's routes on the already listening `server` (its port decides the default issuer,
 * which the routes need). Every answer carries the default security headers; pages bring their
 * own nonce-based policy (http/pages.ts), and a route's own header always wins.
 */
export async function buildIdentityServer(context: IdentityContext, server: Server): Promise<FastifyInstance> {
  const rewrite = withoutAdminTrailingSlash(context.adminPath);
  let handle: RequestListener | undefined;
  const app = Fastify({
    loggerInstance: context.logger as FastifyBaseLogger,
    // One line per answer of our own (request-log.ts) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // The API's request id (X-Request-Id) when it is a plain token, so its calls can be followed.
    ...requestIdOptions,
    // HEAD only where a route lists it (the pages), as before: elsewhere it is a 405.
    exposeHeadRoutes: false,
    serverFactory: (handler) => {
      handle = handler;
      return server;
    },
    rewriteUrl: (req) => rewrite(req.url ?? '/'),
  });
  logRequests(app);
  serveMetrics(app, { metrics: context.metrics, token: context.metricsToken });
  // Ready while not draining and, with a data folder, while it can write there (users, keys, mails).
  serveReadiness(app, {
    lifecycle: context.lifecycle,
    failureReason: 'data_dir',
    check: async () => {
      if (context.dataDir) await access(context.dataDir, constants.W_OK);
      return null;
    },
  });
  app.addHook('onSend', context.securityHeaders.onSend);
  app.addHook('onSend', brokeredSignInFraming(context.mountPath, context.brokeredLogins, context.platformFrameOrigins));
  app.addHook('onSend', async (_request, reply, payload) => {
    // JSON answers are about one user's tokens or mails: never cached.
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/json') && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
  app.setErrorHandler(answerError);
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ error: 'not_found', error_description: 'Unknown path.' }));

  await app.register(async (scope) => {
    acceptForms(scope);
    await scope.register(healthRoutes);
    if (context.mailer.outbox) await scope.register(devOutboxRoutes, { ...context, outbox: context.mailer.outbox });
    await scope.register(interactionRoutes, context);
    await scope.register(brokerRoutes, context);
    await scope.register(setPasswordRoutes, context);
    await scope.register(userinfoRoutes, context);
    await scope.register(loginStatusRoutes, context);
    await scope.register(oidcRoutes, context);
  });
  await app.register(adminRoutes, context);
  await app.ready();
  // The listening server answered 503 until now (app.ts).
  server.removeAllListeners('request');
  server.on('request', handle!);
  return app;
}
