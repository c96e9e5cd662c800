import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import pino, { type Logger } from 'pino';
import type Provider from 'oidc-provider';
import { securityHeaders, serializeRequest } from '@portal/service-kit';

import { createActionTokens } from './action-tokens';
import { createSignInGuard, type SignInGuard } from './brute-force';
import { adminPathFor, createAdminApiHandler } from './admin-api';
import {
  DEFAULT_ACCESS_TOKEN_TTL,
  DEFAULT_FRONTEND_ORIGINS,
  DEFAULT_MAIL_FROM,
  DEFAULT_PRODUCT_NAME,
  parseIssuer,
} from './config';
import { HttpError, sendHtml, sendJson } from './http';
import { createInteractionHandler } from './interactions';
import { createMailer, type Outbox } from './mailer';
import { createProvider, createSessionStore, INTERACTION_PATH, ROUTES, SSO_SESSION_MAX_SECONDS } from './provider';
import { ACTION_TOKEN_PATH, createSetPasswordHandler } from './set-password';
import { generateSigningJwks, type SigningJwks } from './signing-keys';
import { createUserinfoHandler } from './userinfo';
import { createUserStore, type UserStore } from './users';
import { createNonce, securityHeaders as pageSecurityHeaders } from './views/html';
import { outboxPage } from './views/outbox-page';

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
  /** Named in the invitation mails. */
  productName?: string;
  /** Brute-force detection (tests pass one with a hand-moved clock); Keycloak's model by default. */
  guard?: SignInGuard;
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

/** Where the local outbox is browsable, at the server root (not under the realm). */
export const OUTBOX_PATH = '/dev/outbox';

const DEFAULT_REALM_PATH = '/realms/main';
const CLOSE_GRACE_MS = 5_000;

const pathOf = (url: string): string => url.split('?')[0] || '/';

function mountedPath(url: string, mountPath: string): string | undefined {
  if (url === mountPath) return '/';
  if (url.startsWith(`${mountPath}/`)) return url.slice(mountPath.length);
  if (url.startsWith(`${mountPath}?`)) return `/${url.slice(mountPath.length)}`;
  return undefined;
}

/** Starts the provider; with port 0 the issuer follows the port the OS picked. */
export async function startIdentityApp(options: IdentityAppOptions = {}): Promise<IdentityApp> {
  if (!options.smtpUrl && !options.devMode) {
    // The outbox shows live set-password links to whoever opens it: development only.
    throw new Error('The identity provider needs an SMTP server (smtpUrl) outside development mode (devMode).');
  }
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? pino({ level: 'silent' });
  const frontendOrigins = options.frontendOrigins ?? DEFAULT_FRONTEND_ORIGINS;

  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503).end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${urlHost}:${port}`;
  const issuer = parseIssuer(options.issuer ?? `${url}${DEFAULT_REALM_PATH}`);
  const mountPath = new URL(issuer).pathname;
  const adminPath = adminPathFor(mountPath);
  const jwks = options.jwks ?? (await generateSigningJwks());
  const dataDir = options.dataDir ?? null;
  const users = await createUserStore({ dataDir, logger, seedDemo: options.seedDemo ?? false });
  const mailer = await createMailer({
    smtpUrl: options.smtpUrl,
    from: options.mailFrom ?? DEFAULT_MAIL_FROM,
    dataDir,
    logger,
  });
  const actionTokens = await createActionTokens({ issuer, jwks });

  const sessionStore = createSessionStore(logger);
  // One for sign-in, device codes and set-password posts: an address's cap covers all three.
  const guard = options.guard ?? createSignInGuard();
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
    ...(options.serviceClientSecret ? { serviceClientSecret: options.serviceClientSecret } : {}),
  });
  const oidcCallback = provider.callback();
  const handleInteraction = createInteractionHandler({ provider, mountPath, frontendOrigins, logger, users, guard });
  const handleUserinfo = createUserinfoHandler({ provider, issuer, jwks, frontendOrigins, users });
  const handleSetPassword = createSetPasswordHandler({
    provider,
    mountPath,
    frontendOrigins,
    logger,
    users,
    actionTokens,
    sessionStore,
    sessionTtlSeconds: SSO_SESSION_MAX_SECONDS,
    guard,
  });
  const handleAdminApi = createAdminApiHandler({
    issuer,
    adminPath,
    jwks,
    users,
    sessionStore,
    actionTokens,
    mailer,
    frontendOrigins,
    productName: options.productName ?? DEFAULT_PRODUCT_NAME,
    logger,
  });
  const { outbox } = mailer;

  function serveOutbox(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const mails = outbox!.list();
    if (pathname.endsWith('.json')) {
      sendJson(res, 200, mails);
      return;
    }
    const nonce = createNonce();
    sendHtml(res, 200, outboxPage({ mails, nonce, jsonHref: `${OUTBOX_PATH}.json` }), pageSecurityHeaders({ nonce, frontendOrigins }));
  }
  // Every answer, JSON and errors included, carries these; the pages replace the policy with their
  // own nonce-based one (views/html.ts), and a handler's own header always wins. The portal may
  // frame the provider for its silent sign-in check, and forms here end in redirects to it.
  const defaultHeaders = securityHeaders({
    csp: {
      defaultSrc: ["'none'"],
      formAction: ["'self'", ...frontendOrigins],
      frameAncestors: ["'self'", ...frontendOrigins],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawUrl = req.url ?? '/';
    const pathname = pathOf(rawUrl);
    if (pathname === '/healthz') {
      sendJson(res, 200, { status: 'ok' });
      return;
    }
    // Only in the embedded default: with SMTP configured these paths do not exist.
    if (outbox && (pathname === OUTBOX_PATH || pathname === `${OUTBOX_PATH}.json`)) {
      serveOutbox(req, res, pathname);
      return;
    }
    if (pathname === adminPath || pathname.startsWith(`${adminPath}/`)) {
      await handleAdminApi(req, res);
      return;
    }
    const inner = mountedPath(rawUrl, mountPath);
    if (inner === undefined) {
      sendJson(res, 404, { error: 'not_found', error_description: 'Unknown path.' });
      return;
    }
    const innerPath = pathOf(inner);
    if (innerPath.startsWith(`${INTERACTION_PATH}/`)) {
      await handleInteraction(req, res, innerPath);
      return;
    }
    if (innerPath === ROUTES.userinfo) {
      await handleUserinfo(req, res);
      return;
    }
    if (innerPath === ACTION_TOKEN_PATH) {
      await handleSetPassword(req, res);
      return;
    }
    // Mounted the way Express does it: oidc-provider derives its mount path from originalUrl.
    Object.assign(req, { originalUrl: rawUrl });
    req.url = inner;
    oidcCallback(req, res);
  }

  handler = (req, res) => {
    defaultHeaders.middleware(req, res);
    const started = process.hrtime.bigint();
    // Serialised now, before a handler rewrites req.url; codes, tokens and the Cookie header are
    // masked by the portal's one log policy.
    const request = serializeRequest(req);
    res.on('finish', () => {
      logger.info(
        {
          req: request,
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        },
        'request',
      );
    });
    route(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        if (!res.headersSent) sendJson(res, error.status, { error: 'invalid_request', error_description: error.message });
        return;
      }
      logger.error({ err: error }, 'unhandled request error');
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: 'Internal error.' });
      else res.destroy();
    });
  };

  return {
    server,
    provider,
    issuer,
    url,
    users,
    ...(outbox ? { outbox } : {}),
    close: async () => {
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
      await users.flush();
    },
  };
}
