import fp from 'fastify-plugin';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { detailError } from '../../lib/http-errors';

/**
 * Which budget a route draws from. Polling is generous (the launch screen asks for the session's
 * status every second and whoami regularly, maybe from several tabs); creating sessions and
 * uploading files are strict; everything else shares a default.
 */
export type RateClass = 'polling' | 'sessionCreate' | 'upload' | 'lti' | 'default';

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

/** A route's class: named above, an upload when it takes multipart forms, else the default. */
export function classifyRoute(route: { method: string; url: string; schema?: unknown }): RateClass {
  const named = RATE_CLASSES[`${route.method} ${route.url}`];
  if (named) return named;
  const consumes = (route.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  return consumes?.includes('multipart/form-data') ? 'upload' : 'default';
}

const rateClassOf = (request: FastifyRequest): RateClass =>
  request.routeOptions.config.rateClass ?? 'default';

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
type Limiters = Record<RateClass, Limiter>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set for every route when it is added (classifyRoute); not meant to be declared by hand. */
    rateClass?: RateClass;
  }
  interface FastifyInstance {
    /** Every route with its class, in the order added; tests check each upload route is covered. */
    routeRateClasses: Array<{ method: string; url: string; rateClass: RateClass }>;
    /** Per-user limiters by class, made by rateLimitPlugin for userRateLimitPlugin. */
    userRateLimiters: Limiters | null;
  }
}

async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply) {
  const result = await limiter(request);
  if (result.isAllowed) return;
  reply
    .header('x-ratelimit-limit', result.max)
    .header('x-ratelimit-remaining', result.remaining)
    .header('x-ratelimit-reset', result.ttlInSeconds);
  if (!result.isExceeded) return;
  reply.header('retry-after', result.ttlInSeconds);
  throw detailError(429, tooManyRequests(result.ttlInSeconds));
}

/**
 * Per-address limits, checked before anything else so that floods of bad tokens or unknown URLs
 * cost one counter each. An address may spend RATE_LIMIT_ADDRESS_USERS users' budgets, because a
 * school's learners share one NAT address; `request.ip` honours TRUST_PROXY. Counters live in this
 * process (with N API processes an address gets up to N times the budget).
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
      });
      route.config = { ...route.config, rateClass };
      for (const method of methods) classes.push({ method, url: route.url, rateClass });
    });
    app.decorate('userRateLimiters', null);
    if (!config.rateLimitEnabled) return;
    // No route gets the package's own hook: the two checks below decide.
    await app.register(rateLimit, { global: false });

    const budgets: Record<RateClass, number> = {
      polling: config.rateLimitPolling,
      sessionCreate: config.rateLimitSessionCreate,
      upload: config.rateLimitUpload,
      lti: config.rateLimitLti,
      default: config.rateLimitDefault,
    };
    const limiters = (scale: number, key: (request: FastifyRequest) => string) =>
      Object.fromEntries(
        Object.entries(budgets).map(([rateClass, max]) => [
          rateClass,
          app.createRateLimit({
            max: max * scale,
            timeWindow: config.rateLimitWindowMs,
            keyGenerator: (request) => `${rateClass}:${key(request)}`,
          }),
        ]),
      ) as Limiters;

    const byAddress = limiters(config.rateLimitAddressUsers, (request) => normalizeIP(request.ip));
    app.userRateLimiters = limiters(1, (request) => userKeyOf(request) ?? '');

    app.addHook('onRequest', async (request, reply) => {
      await enforce(byAddress[rateClassOf(request)], request, reply);
    });
  },
  { name: 'rate-limit', dependencies: ['config'] },
);

/**
 * Per-user limits. Registered after the auth and session-token plugins: the key must come from a
 * verified token, or a forged one could spend someone else's budget.
 */
export const userRateLimitPlugin = fp(
  async (app) => {
    const limiters = app.userRateLimiters;
    if (!limiters) return;
    app.addHook('onRequest', async (request, reply) => {
      if (userKeyOf(request) === null) return;
      await enforce(limiters[rateClassOf(request)], request, reply);
    });
  },
  { name: 'user-rate-limit', dependencies: ['rate-limit', 'auth', 'session-token'] },
);
