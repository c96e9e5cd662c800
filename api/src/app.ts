import Fastify, { type FastifyServerOptions } from 'fastify';
import { serverLogOptions } from '@portal/service-kit';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { JWTVerifyGetKey } from 'jose';
import type { Config } from './config';
import type { Db } from './db/driver';
import { accessPlugin } from './plugins/app/access';
import { authPlugin } from './plugins/app/auth';
import { configPlugin } from './plugins/app/config';
import { dbPlugin } from './plugins/app/db';
import { demoActivityPlugin } from './plugins/app/demo-activity';
import { demoConfigurationsPlugin } from './plugins/app/demo-configurations';
import { demoDownloadsPlugin } from './plugins/app/demo-downloads';
import { errorsPlugin } from './plugins/app/errors';
import { rateLimitPlugin, userRateLimitPlugin } from './plugins/app/rate-limit';
import { repositoriesPlugin } from './plugins/app/repositories';
import { securityHeadersPlugin } from './plugins/app/security-headers';
import { sessionExpiryPlugin } from './plugins/app/session-expiry';
import { sessionStatusCachePlugin } from './plugins/app/session-status-cache';
import { sessionTokenPlugin } from './plugins/app/session-token';
import { storagePlugin } from './plugins/app/storage';
import type { Storage } from './storage/storage';
import storageRoutes from './routes/api/v1/storage/index';
import { xsrfPlugin } from './plugins/app/xsrf';
import { swaggerPlugin } from './plugins/external/swagger';
import { docsRoutes } from './routes/api/docs/index';
import { healthRoutes } from './routes/healthz';
import { lookupRoutes } from './routes/api/v1/lookup/index';
import { userRoutes } from './routes/api/v1/user/self';
import simulationDownloadRoutes from './routes/api/v1/user/_id/simulation-download/index';
import reportRoutes from './routes/api/v1/report/index';
import fileRoutes from './routes/api/v1/file/index';
import { entitlementModeRoutes } from './routes/api/v1/user/entitlement-mode';
import productRoutes from './routes/api/v1/product/index';
import simulatorRoutes from './routes/api/v1/simulator/index';
import { identityAdminPlugin } from './plugins/app/identity-admin';
import { outboxWorkerPlugin } from './plugins/app/outbox-worker';
import { clockPlugin } from './plugins/app/clock';
import type { Clock } from './jobs/clock';
import { mailerPlugin } from './plugins/app/mailer';
import { emailChangeRoutes } from './routes/api/v1/email-change/index';
import { devOutboxRoutes } from './routes/api/dev/outbox';
import { userAdminRoutes } from './routes/api/v1/user/admin';
import { organisationUserRoutes } from './routes/api/v1/organisation/users';
import type { IdentityAdmin } from './identity/identity-admin';
import { organisationRoutes } from './routes/api/v1/organisation/organisations';
import { licenseBlockRoutes } from './routes/api/v1/organisation/license-blocks';
import { auditRoutes } from './routes/api/v1/audit/index';
import { notificationRoutes } from './routes/api/v1/notification/index';
import { licenseExpiryPlugin } from './plugins/app/license-expiry';
import { fileCleanupPlugin } from './plugins/app/file-cleanup';
import ltiRoutes from './routes/api/lti/index';
import ltiPlatformRoutes from './routes/api/v1/lti/platform/index';
import ltiRegistrationTokenRoutes from './routes/api/v1/organisation/_id/lti/registration-token/index';
import ltiToolRoutes from './routes/api/v1/lti/tool/index';
import ltiRegisterRoutes from './routes/api/lti/register/index';
import brightspaceAuthRoutes from './routes/api/brightspace-auth/index';
import { brightspaceUserRoutes } from './routes/api/v1/user/brightspace';
import ltiDeepLinkRoutes from './routes/api/v1/lti/deep-link/index';
import ltiDeepLinkReturnRoutes from './routes/api/lti/deep-link/index';

export interface BuildAppOptions {
  config: Config;
  /** Ready database (tests); otherwise opened from `config`. */
  db?: Db;
  /** Token key source (tests); otherwise the issuer's JWKS. */
  jwks?: JWTVerifyGetKey;
  logger?: FastifyServerOptions['logger'];
  /** File storage (tests); otherwise local disk under `config.storageDir`. */
  storage?: Storage;
  /** Identity provider admin API (tests); otherwise Keycloak's from `config.identityAdmin`. */
  identityAdmin?: IdentityAdmin | null;
  /** The scheduled jobs' time (tests); otherwise the system's. */
  clock?: Clock;
}

/** Fastify trusts `n` hops for a number too, but its types only know the function form of it. */
function trustProxyOption(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

export async function buildApp(options: BuildAppOptions) {
  const app = Fastify({
    // Query strings and headers carry session tokens, sign-in codes and storage signatures.
    logger: serverLogOptions(options.logger, { level: options.config.logLevel }),
    // X-Forwarded-* tell us the browser's protocol and address only when they come from a proxy
    // we run (TRUST_PROXY); believed from anyone, they would let a client pick its own address.
    trustProxy: trustProxyOption(options.config.trustProxy),
    // Route names follow the spec's URLs exactly; `/lookup/` and `/lookup` are the same list.
    routerOptions: { ignoreTrailingSlash: true },
    // Opening PGlite (WASM) and migrating takes a few seconds, several times that on a busy
    // 2-core machine; fastify's 10 s default then kills a start that would have succeeded.
    pluginTimeout: 60_000,
  }).withTypeProvider<TypeBoxTypeProvider>();

  // External plugins.
  await app.register(cookie);
  await app.register(swaggerPlugin);

  // App plugins. Access declarations are collected before any route is added.
  await app.register(accessPlugin);
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(configPlugin, { config: options.config });
  await app.register(clockPlugin, { clock: options.clock });
  // First of the request hooks, so a flood is turned away before it costs a token check.
  await app.register(rateLimitPlugin);
  await app.register(dbPlugin, options.db ? { db: options.db } : {});
  await app.register(repositoriesPlugin);
  await app.register(storagePlugin, options.storage ? { storage: options.storage } : {});
  await app.register(demoDownloadsPlugin);
  await app.register(demoConfigurationsPlugin);
  await app.register(demoActivityPlugin);
  await app.register(xsrfPlugin);
  await app.register(authPlugin, options.jwks ? { jwks: options.jwks } : {});
  await app.register(sessionTokenPlugin);
  await app.register(userRateLimitPlugin);
  await app.register(sessionStatusCachePlugin);
  await app.register(sessionExpiryPlugin);
  await app.register(identityAdminPlugin, { identityAdmin: options.identityAdmin });
  await app.register(outboxWorkerPlugin);
  await app.register(mailerPlugin);
  await app.register(licenseExpiryPlugin);
  await app.register(fileCleanupPlugin);

  // Routes.
  await app.register(healthRoutes);
  await app.register(docsRoutes, { prefix: '/api/docs' });
  await app.register(userRoutes, { prefix: '/api/v1/user' });
  await app.register(entitlementModeRoutes, { prefix: '/api/v1/user' });
  await app.register(productRoutes, { prefix: '/api/v1/product' });
  await app.register(simulatorRoutes, { prefix: '/api/v1/simulator' });
  await app.register(simulationDownloadRoutes, { prefix: '/api/v1/user/:id/simulation-download' });
  await app.register(reportRoutes, { prefix: '/api/v1/report' });
  await app.register(fileRoutes, { prefix: '/api/v1/file' });
  await app.register(lookupRoutes, { prefix: '/api/v1/lookup' });
  await app.register(storageRoutes, { prefix: '/api/v1/storage' });
  await app.register(userAdminRoutes, { prefix: '/api/v1/user' });
  await app.register(emailChangeRoutes, { prefix: '/api/v1/email-change' });
  await app.register(devOutboxRoutes, { prefix: '/api/dev' });
  await app.register(organisationUserRoutes, { prefix: '/api/v1/organisation' });
  await app.register(organisationRoutes, { prefix: '/api/v1/organisation' });
  await app.register(licenseBlockRoutes, { prefix: '/api/v1/organisation' });
  await app.register(auditRoutes, { prefix: '/api/v1/audit' });
  await app.register(notificationRoutes, { prefix: '/api/v1/notification' });
  await app.register(ltiRoutes, { prefix: '/api/lti' });
  await app.register(ltiPlatformRoutes, { prefix: '/api/v1/lti/platform' });
  await app.register(ltiRegisterRoutes, { prefix: '/api/lti/register' });
  await app.register(ltiRegistrationTokenRoutes, {
    prefix: '/api/v1/organisation/:id/lti/registration-token',
  });
  await app.register(ltiToolRoutes, { prefix: '/api/v1/lti/tool' });
  await app.register(brightspaceAuthRoutes, { prefix: '/api/brightspace-auth' });
  await app.register(brightspaceUserRoutes, { prefix: '/api/v1/user' });
  await app.register(ltiDeepLinkRoutes, { prefix: '/api/v1/lti/deep-link' });
  await app.register(ltiDeepLinkReturnRoutes, { prefix: '/api/lti/deep-link' });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
