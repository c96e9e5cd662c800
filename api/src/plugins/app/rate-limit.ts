import fp from 'fastify-plugin';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { detailError } from '../../lib/http-errors';
import { accessOf } from './access';
import { databaseRateLimitStore } from './rate-limit-store';

/**
 * Which budget a route draws from. The work of a signed-in user (or a simulator's session) is
 * counted per user: polling is generous (the launch screen asks for the session's status every
 * second and whoami regularly, maybe from several tabs); creating sessions and uploading files
 * are strict; everything else shares a default. Only what nobody is signed in for is counted per
 * address: the LTI entry points (`lti`) and every other public route (`anonymous`), sized for a
 * school whose learners all come from one NAT address.
 */
export type RateClass = 'polling' | 'sessionCreate' | 'upload' | 'default' | AddressRateClass;
export type AddressRateClass = 'lti' | 'anonymous';
type UserRateClass = Exclude<RateClass, AddressRateClass>;

/** Routes outside the default class by `METHOD url`; multipart routes are uploads by themselves. */
export const RATE_CLASSES: Readonly<Record<string, RateClass>> = {
  'GET /api/v1/user/whoami': 'polling',
  'GET /api/v1/product/:productId/session/:uuid/status': 'polling',
  'POST /api/v1/product/:productId/session': 'sessionCreate',
  'GET /api/lti/login': 'lti',
  'POST /api/lti/login': 'lti',
  'POST /api/lti/launch': 'lti',
  'GET /api/lti/jwks': 'lti',
  'GET /api/lti/register': 'lti',
};

/**
 * A route's class: named above, an upload when it takes multipart forms, `anonymous` when it is
 * public (no user to count against), else the default.
 */
export function classifyRoute(route: {
  method: string;
  url: string;
  schema?: unknown;
  config?: unknown;
}): RateClass {
  const named = RATE_CLASSES[`${route.method} ${route.url}`];
  if (named) return named;
  const consumes = (route.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  if (consumes?.includes('multipart/form-data')) return 'upload';
  return accessOf(route.config as { public?: boolean }) === 'public' ? 'anonymous' : 'default';
}

/** Who a request counts against once authenticated: the token's user, or the simulator's session. */
function userKeyOf(request: FastifyRequest): string | null {
  const sub = request.tokenClaims?.sub ?? request.user?.id;
  if (sub) return `user:${sub}`;
  if (request.simulationSession) return `session:${request.simulationSession.uuid}`;
  return null;
}

export const tooManyRequests = (seconds: number) =>
  `Too many requests. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set for every route when it is added (classifyRoute); not meant to be declared by hand. */
    rateClass?: RateClass;
  }
  interface FastifyInstance {
    /** Every route with its class, in the order added; tests check each upload route is covered. */
    routeRateClasses: Array<{ method: string; url: string; rateClass: RateClass }>;
    /** Per-user limiters by class, made by rateLimitPlugin for userRateLimitPlugin. */
    userRateLimiters: Record<UserRateClass, Limiter> | null;
  }
}

function refuse(reply: FastifyReply, max: number, seconds: number): never {
  reply
    .header('x-ratelimit-limit', max)
    .header('x-ratelimit-remaining', 0)
    .header('x-ratelimit-reset', seconds)
    .header('retry-after', seconds);
  throw detailError(429, tooManyRequests(seconds));
}

/** Counts the request; a 429 once the budget is spent. Returns whether it was over. */
async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply) {
  const result = await limiter(request);
  if (result.isAllowed) return;
  reply
    .header('x-ratelimit-limit', result.max)
    .header('x-ratelimit-remaining', result.remaining)
    .header('x-ratelimit-reset', result.ttlInSeconds);
  if (result.isExceeded) refuse(reply, result.max, result.ttlInSeconds);
}

/** Whether the request brings a credential (a bearer token or a simulator's session token). */
const hasCredential = (request: FastifyRequest) =>
  (request.headers.authorization ?? '').trim() !== '';

/**
 * Per-address limits, checked before anything else, for what nobody is signed in for: the LTI
 * entry points (`lti`); the other public routes, unknown URLs and protected routes called without
 * a credential (`anonymous`); and requests whose credential was refused, counted once refused
 * under the same budget but apart, so that a school's anonymous traffic never locks out its
 * signed-in learners. An address that has spent its refusals is turned away before its next
 * token is even checked, so a flood of bad tokens costs a signature check only until then.
 * `request.ip` is the client's address as the host's proxy reports it (TRUST_PROXY). On
 * PostgreSQL the counters are in the database (rate-limit-store.ts), so however many API processes
 * serve, a budget is spent once; PGlite is one process and counts in its memory.
 */
export const rateLimitPlugin = fp(
  async (app) => {
    const { config } = app;
    const classes: FastifyInstance['routeRateClasses'] = [];
    app.decorate('routeRateClasses', classes);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const rateClass = classifyRoute({
        method: methods[0] ?? '',
        url: route.url,
        schema: route.schema,
        config: route.config,
      });
      route.config = { ...route.config, rateClass };
      for (const method of methods) classes.push({ method, url: route.url, rateClass });
    });
    app.decorate('userRateLimiters', null);
    if (!config.rateLimitEnabled) return;
    const shared = app.db.kind === 'postgres';
    // No route gets the package's own hook: the checks below decide.
    await app.register(rateLimit, {
      global: false,
      ...(shared
        ? {
            // On the polled routes' own connections (Db.polled): every signed-in request counts
            // here, and on the main pool each waited behind uploads' open transactions.
            store: databaseRateLimitStore(app.db.polled ?? app.db),
            // A database that cannot count cannot serve the request either; its own error says
            // why, rather than a rate limit's.
            skipOnError: true,
          }
        : {}),
    });

    const limiter = (
      name: RateClass | 'refused',
      max: number,
      key: (request: FastifyRequest) => string,
    ) =>
      app.createRateLimit({
        max,
        timeWindow: config.rateLimitWindowMs,
        keyGenerator: (request) => `${name}:${key(request)}`,
      });
    const address = (request: FastifyRequest) => normalizeIP(request.ip);
    const byAddress: Record<AddressRateClass, Limiter> = {
      lti: limiter('lti', config.rateLimitLtiPerAddress, address),
      anonymous: limiter('anonymous', config.rateLimitAnonymousPerAddress, address),
    };
    // Refused credentials are counted apart: a school's anonymous traffic (or one machine's
    // flood of it) must not lock its signed-in learners out.
    const refused = limiter('refused', config.rateLimitAnonymousPerAddress, address);
    const user = (request: FastifyRequest) => userKeyOf(request) ?? '';
    app.userRateLimiters = {
      polling: limiter('polling', config.rateLimitPolling, user),
      sessionCreate: limiter('sessionCreate', config.rateLimitSessionCreate, user),
      upload: limiter('upload', config.rateLimitUpload, user),
      default: limiter('default', config.rateLimitDefault, user),
    };

    const isPublic = (request: FastifyRequest) =>
      request.is404 || accessOf(request.routeOptions.config) === 'public';

    app.addHook('onRequest', async (request, reply) => {
      const rateClass = request.routeOptions.config.rateClass;
      if (rateClass === 'lti') return enforce(byAddress.lti, request, reply);
      if (isPublic(request) || !hasCredential(request)) {
        return enforce(byAddress.anonymous, request, reply);
      }
      // A credential is counted only once refused (below); an address that has spent its budget
      // that way is turned away before the next one is checked.
      const spent = await refused(request, { increment: false });
      if (!spent.isAllowed && spent.remaining === 0) refuse(reply, spent.max, spent.ttlInSeconds);
    });

    // Counted before the 401 goes out, not after: with the counters in the database the
    // address's next request could otherwise be checked before this one is counted.
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode === 401 && !isPublic(request) && hasCredential(request)) {
        await refused(request);
      }
      return payload;
    });
  },
  { name: 'rate-limit', dependencies: ['config', 'access', 'db', 'clock'] },
);

/**
 * Per-user limits. Registered after the auth and session-token plugins: the key must come from a
 * verified token, or a forged one could spend someone else's budget. A school's learners behind
 * one address each have their own budgets.
 */
export const userRateLimitPlugin = fp(
  async (app) => {
    const limiters = app.userRateLimiters;
    if (!limiters) return;
    app.addHook('onRequest', async (request, reply) => {
      const rateClass = request.routeOptions.config.rateClass ?? 'default';
      if (rateClass === 'lti' || rateClass === 'anonymous' || userKeyOf(request) === null) return;
      await enforce(limiters[rateClass], request, reply);
    });
  },
  { name: 'user-rate-limit', dependencies: ['rate-limit', 'auth', 'session-token'] },
);
