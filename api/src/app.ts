import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { requestIdOptions, serverLogOptions } from '@portal/service-kit';
import autoload from '@fastify/autoload';
import cookie from '@fastify/cookie';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { JWTVerifyGetKey } from 'jose';
import type { Config } from './config';
import type { Db } from './db/driver';
import { accessPlugin } from './plugins/app/access';
import { authPlugin } from './plugins/app/auth';
import { authUserCachePlugin } from './plugins/app/auth-user-cache';
import { changeNoticesPlugin } from './plugins/app/change-notices';
import { configPlugin } from './plugins/app/config';
import { dbPlugin } from './plugins/app/db';
import { demoActivityPlugin } from './plugins/app/demo-activity';
import { demoConfigurationsPlugin } from './plugins/app/demo-configurations';
import { demoDownloadsPlugin } from './plugins/app/demo-downloads';
import { errorsPlugin } from './plugins/app/errors';
import { rateLimitSweepPlugin } from './plugins/app/rate-limit-sweep';
import { rateLimitPlugin, userRateLimitPlugin } from './plugins/app/rate-limit';
import { repositoriesPlugin } from './plugins/app/repositories';
import { requestLogPlugin } from './plugins/app/request-log';
import { securityHeadersPlugin } from './plugins/app/security-headers';
import { sessionExpiryPlugin } from './plugins/app/session-expiry';
import { sessionStatusCachePlugin } from './plugins/app/session-status-cache';
import { sessionTokenPlugin } from './plugins/app/session-token';
import { storagePlugin } from './plugins/app/storage';
import type { Storage } from './storage/storage';
import { xsrfPlugin } from './plugins/app/xsrf';
import { swaggerPlugin } from './plugins/external/swagger';
import { identityAdminPlugin } from './plugins/app/identity-admin';
import { outboxWorkerPlugin } from './plugins/app/outbox-worker';
import { ltiRosterSyncPlugin } from './plugins/app/lti-roster-sync';
import { clockPlugin } from './plugins/app/clock';
import type { Clock } from './jobs/clock';
import { mailerPlugin } from './plugins/app/mailer';
import type { IdentityAdmin } from './identity/identity-admin';
import { licenseExpiryPlugin } from './plugins/app/license-expiry';
import { ltiKeyRotationPlugin } from './plugins/app/lti-key-rotation';
import { fileCleanupPlugin } from './plugins/app/file-cleanup';
import { outboxCleanupPlugin } from './plugins/app/outbox-cleanup';
import { databaseGaugesPlugin, metricsPlugin } from './plugins/app/metrics';
import { lifecyclePlugin } from './plugins/app/lifecycle';
import type { createLifecycle } from '@portal/service-kit';

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
  /** Draining state (server.ts drains it on SIGTERM); otherwise the app's own. */
  lifecycle?: ReturnType<typeof createLifecycle>;
  /** Adds the tracing hook (server.ts, with OTEL_EXPORTER_OTLP_ENDPOINT) before any route. */
  traceRoutes?: (app: FastifyInstance) => void;
}

/** Fastify trusts `n` hops for a number too, but its types only know the function form of it. */
function trustProxyOption(trust: Config['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

// @fastify/autoload recognises TypeScript only behind the loaders it knows; tsx's `--import` hook is
// not one of them, so the API run from its sources (tsx, tests) says so itself.
if (import.meta.url.endsWith('.ts')) process.env.FASTIFY_AUTOLOAD_TYPESCRIPT ??= '1';

export async function buildApp(options: BuildAppOptions) {
  const app = Fastify({
    // Query strings and headers carry session tokens, sign-in codes and storage signatures.
    logger: serverLogOptions(options.logger, { level: options.config.logLevel }),
    // Request ids: the host's (X-Request-Id) when it is a plain token, else fresh; one line per
    // answer from the request-log plugin instead of Fastify's two.
    ...requestIdOptions,
    logController: new LogController({ disableRequestLogging: true }),
    // X-Forwarded-* tell us the browser's protocol and address only when they come from a proxy
    // we run (TRUST_PROXY); believed from anyone, they would let a client pick its own address.
    trustProxy: trustProxyOption(options.config.trustProxy),
    // Route names follow the URLs of docs/requirements.md#calls exactly; `/lookup/` and `/lookup` are the same list.
    routerOptions: { ignoreTrailingSlash: true },
    // Opening PGlite (WASM) and migrating takes a few seconds, several times that on a busy
    // 2-core machine; fastify's 10 s default then kills a start that would have succeeded.
    pluginTimeout: 60_000,
    // A request whose head arrives while the server closes (its connection was accepted just
    // before the listener closed, or its head was still on the way) is served, with
    // `Connection: close`, instead of Fastify's 503: it reached this copy, and a load balancer
    // may not resend a POST elsewhere. The close still waits for it, within SHUTDOWN_GRACE_SECONDS.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(requestLogPlugin);
  options.traceRoutes?.(app);
  // External plugins.
  await app.register(cookie);
  await app.register(swaggerPlugin);

  // App plugins. Access declarations are collected before any route is added.
  await app.register(accessPlugin);
  await app.register(errorsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(configPlugin, { config: options.config });
  // Before the database, so its statements are timed; its onResponse times every request.
  await app.register(metricsPlugin);
  await app.register(clockPlugin, { clock: options.clock });
  // The database adds no request hook; the rate limits count in it on PostgreSQL.
  await app.register(dbPlugin, options.db ? { db: options.db } : {});
  // First of the request hooks, so a flood is turned away before it costs a token check.
  await app.register(rateLimitPlugin);
  await app.register(repositoriesPlugin);
  await app.register(changeNoticesPlugin);
  await app.register(databaseGaugesPlugin);
  // Before every timer: a draining instance (SIGTERM) starts no further job run or outbox round.
  await app.register(lifecyclePlugin, { lifecycle: options.lifecycle });
  await app.register(rateLimitSweepPlugin);
  await app.register(authUserCachePlugin);
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
  await app.register(outboxCleanupPlugin);
  await app.register(ltiKeyRotationPlugin);
  await app.register(ltiRosterSyncPlugin);

  // Routes: the folder is the URL (`routes/api/v1/user/admin.ts` serves under `/api/v1/user`, a
  // folder `_id` is `:id`); a folder with an `index.ts` loads that file, which registers its siblings.
  await app.register(autoload, { dir: path.join(import.meta.dirname, 'routes'), routeParams: true });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
