import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import type Provider from 'oidc-provider';
import { createLifecycle, securityHeaders, type Lifecycle } from '@portal/service-kit';

import { createActionTokens } from './accounts/action-tokens';
import { createUserStore, type UserStore } from './accounts/users';
import {
  DEFAULT_ACCESS_TOKEN_TTL,
  DEFAULT_FRONTEND_ORIGINS,
  DEFAULT_MAIL_FROM,
  DEFAULT_PRODUCT_NAME,
  parseIssuer,
} from './config';
import { createBrokeredLogins } from './broker/brokered-login';
import type { IdentityProviderRepresentation } from './broker/identity-providers';
import type { IdentityContext } from './context';
import { platformFrameOriginsOf, type PlatformFrameOrigins } from './http/brokered-framing';
import { createIdentityMetrics } from './http/metrics';
import { createPages } from './http/pages';
import { buildIdentityServer } from './http/server';
import { createMailer, type Outbox } from './mail/mailer';
import { createProvider, createSessionStore } from './oidc/provider';
import { generateSigningJwks, type SigningJwks } from './oidc/signing-keys';
import { adminPathFor } from './routes/admin';
import { createSignInGuard, type SignInGuard } from './security/brute-force';

export { OUTBOX_PATH } from './routes/dev-outbox';

export interface IdentityAppOptions {
  /** Defaults to 0 (any free port). */
  port?: number;
  host?: string;
  /** Defaults to `http://{host}:{actual port}/realms/main`, which is what tests want. */
  issuer?: string;
  frontendOrigins?: string[];
  accessTokenTtl?: number;
  cookieKeys?: string[];
  /** Defaults to a fresh in-memory key. */
  jwks?: SigningJwks;
  /** GET /metrics answers this bearer token; unset = no /metrics (404). */
  metricsToken?: string;
  /** The process's draining state (server.ts drains it on SIGTERM); tests pass their own. */
  lifecycle?: Lifecycle;
  logger?: Logger;
  /** Keeps `users.json` and `outbox.json`; null or unset keeps users and mails in memory (tests). */
  dataDir?: string | null;
  /**
   * Secret of the confidential `portal-api` client (client credentials → admin API). Without it
   * the client does not exist and the admin API refuses everyone.
   */
  serviceClientSecret?: string;
  /**
   * SMTP server for the invitation mails; without it, in development mode, they go to the
   * outbox at `/dev/outbox`. Without either the provider does not start.
   */
  smtpUrl?: string;
  /** Development mode: allows the local outbox (config.ts, IDENTITY_DEV_MODE). */
  devMode?: boolean;
  /** The demo accounts with their known password (SEED_DEMO). */
  seedDemo?: boolean;
  mailFrom?: string;
  /** Named in the invitation mails and on every page (PRODUCT_NAME). */
  productName?: string;
  /** Brute-force detection (tests pass one with a hand-moved clock); Keycloak's model by default. */
  guard?: SignInGuard;
  /**
   * scrypt's cost for new password hashes as log2 N (default 15, accounts/passwords.ts). Tests that
   * sign in hundreds of times pass 10; stored hashes keep their own cost.
   */
  passwordHashLog2N?: number;
  /** External OpenID providers to broker (Keycloak's realm `identityProviders`). */
  identityProviders?: IdentityProviderRepresentation[];
  /**
   * The learning platforms that may frame a launch's brokered sign-in; default: the registrations
   * of the portal API the launch broker belongs to (GET /api/lti/frame-origins), none without one.
   */
  platformFrameOrigins?: PlatformFrameOrigins | null;
}

export interface IdentityApp {
  server: Server;
  provider: Provider;
  issuer: string;
  /** `http://host:port` the server listens on. */
  url: string;
  users: UserStore;
  /** The local outbox; undefined when mails go out over SMTP. */
  outbox?: Outbox;
  close(): Promise<void>;
}

const DEFAULT_REALM_PATH = '/realms/main';
const CLOSE_GRACE_MS = 5_000;

async function listen(port: number, host: string): Promise<{ server: Server; url: string }> {
  // Until the routes are ready (the demo accounts' password hash takes a while), a health check
  // hears 503 rather than waiting on a request nobody answers.
  const server = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return { server, url: `http://${urlHost}:${(server.address() as AddressInfo).port}` };
}

/** Everything the routes share, for one issuer. */
async function createContext(options: IdentityAppOptions, issuer: string): Promise<IdentityContext> {
  const logger = options.logger ?? pino({ level: 'silent' });
  const frontendOrigins = options.frontendOrigins ?? DEFAULT_FRONTEND_ORIGINS;
  const productName = options.productName ?? DEFAULT_PRODUCT_NAME;
  const mountPath = new URL(issuer).pathname;
  const jwks = options.jwks ?? (await generateSigningJwks());
  const dataDir = options.dataDir ?? null;
  const users = await createUserStore({
    dataDir,
    logger,
    seedDemo: options.seedDemo ?? false,
    ...(options.passwordHashLog2N ? { passwordHashLog2N: options.passwordHashLog2N } : {}),
  });
  const mailer = await createMailer({ smtpUrl: options.smtpUrl, from: options.mailFrom ?? DEFAULT_MAIL_FROM, dataDir, logger });
  const actionTokens = await createActionTokens({ issuer, jwks });
  const sessionStore = createSessionStore(logger);
  const guard = options.guard ?? createSignInGuard();
  const pages = createPages({ productName, frontendOrigins });
  const provider = createProvider({
    issuer,
    frontendOrigins,
    accessTokenTtl: options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL,
    cookieKeys: options.cookieKeys ?? [randomBytes(32).toString('base64url')],
    jwks,
    logger,
    users,
    sessionStore,
    guard,
    pages,
    ...(options.serviceClientSecret ? { serviceClientSecret: options.serviceClientSecret } : {}),
  });
  // The portal may frame the provider for its silent sign-in check, and forms here end in
  // redirects to it.
  const metrics = createIdentityMetrics();
  provider.on('grant.success', (ctx: { oidc?: { params?: { grant_type?: unknown } } }) => {
    // The provider refuses grant types it does not know, so the label stays a short list.
    metrics.tokensIssued.inc({ grant_type: String(ctx.oidc?.params?.grant_type ?? 'unknown') });
  });
  const headers = securityHeaders({
    csp: {
      defaultSrc: ["'none'"],
      formAction: ["'self'", ...frontendOrigins],
      frameAncestors: ["'self'", ...frontendOrigins],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
  });
  return {
    issuer,
    mountPath,
    adminPath: adminPathFor(mountPath),
    frontendOrigins,
    identityProviders: options.identityProviders ?? [],
    brokeredLogins: createBrokeredLogins({ issuer, providers: options.identityProviders ?? [], users, logger }),
    platformFrameOrigins:
      options.platformFrameOrigins !== undefined
        ? options.platformFrameOrigins
        : platformFrameOriginsOf(options.identityProviders ?? [], onceUntilStarted(logger)),
    productName,
    logger,
    jwks,
    users,
    sessionStore,
    actionTokens,
    mailer,
    provider,
    guard,
    pages,
    securityHeaders: headers,
    metrics,
    metricsToken: options.metricsToken,
    lifecycle: options.lifecycle ?? createLifecycle(),
    dataDir,
  };
}

async function closeServer(server: Server, app: FastifyInstance): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    force.unref();
    server.close((error) => {
      clearTimeout(force);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
  await app.close();
}

/**
 * While the portal API is still starting (the stack starts the identity provider first), every
 * retry of the frame-origins fetch fails: one warning says so, not one every 5 s.
 */
function onceUntilStarted(logger: Logger) {
  let warned = false;
  return (error: unknown) => {
    if (warned) return;
    warned = true;
    logger.warn({ err: error }, 'could not read the learning platforms that may frame a launch sign-in; retrying');
  };
}

/** Starts the provider; with port 0 the issuer follows the port the OS picked. */
export async function startIdentityApp(options: IdentityAppOptions = {}): Promise<IdentityApp> {
  if (!options.smtpUrl && !options.devMode) {
    // The outbox shows live set-password links to whoever opens it: development only.
    throw new Error('The identity provider needs an SMTP server (smtpUrl) outside development mode (devMode).');
  }
  const { server, url } = await listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const issuer = parseIssuer(options.issuer ?? `${url}${DEFAULT_REALM_PATH}`);
  const context = await createContext(options, issuer);
  const app = await buildIdentityServer(context, server);
  const { outbox } = context.mailer;
  return {
    server,
    provider: context.provider,
    issuer,
    url,
    users: context.users,
    ...(outbox ? { outbox } : {}),
    close: async () => {
      await closeServer(server, app);
      await context.users.flush();
    },
  };
}
