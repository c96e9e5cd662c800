// One request line per answer, the same in every server of the portal: the request id (taken
// from the caller's X-Request-Id when it is a plain token, so one browser action can be followed
// from the host through the API to the identity provider), what was asked, the status and the
// time taken. Health checks and static files are routine: at debug, unless they fail.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries a request's id between the portal's services (lower case, as Node gives it). */
export const REQUEST_ID_HEADER = 'x-request-id';

// Short, printable and free of spaces, quotes and control characters: an id a caller chose must
// not be able to forge or garble a log line.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Whether a caller's request id may be used as ours: at most 64 of `A-Z a-z 0-9 . _ : -`. */
export function isSafeRequestId(value) {
  return typeof value === 'string' && SAFE_REQUEST_ID.test(value);
}

/** Fastify's `genReqId`: the incoming X-Request-Id when it is safe, otherwise a fresh UUID. */
export function genReqId(req) {
  const incoming = req.headers?.[REQUEST_ID_HEADER];
  return isSafeRequestId(incoming) ? incoming : randomUUID();
}

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
const PARENT = Symbol('parent');
const BINDINGS = Symbol('bindings');
const CHILD = Symbol('child');

/**
 * A request's logger that becomes pino's child (with the request id) only when something is
 * logged at an enabled level. Fastify makes a child per request, and pino's `child` stringifies and
 * redacts its bindings at once: 3 % of the API's time under polling load, for loggers that the
 * polls' answers never write with (their line is at a level the server does not print, or none).
 */
class LazyRequestLogger {
  constructor(parent, bindings) {
    this[PARENT] = parent;
    this[BINDINGS] = bindings;
    this[CHILD] = undefined;
  }

  /** pino's child, made once. */
  get pino() {
    return (this[CHILD] ??= this[PARENT].child(this[BINDINGS]));
  }

  get level() {
    return (this[CHILD] ?? this[PARENT]).level;
  }

  set level(value) {
    this.pino.level = value;
  }

  isLevelEnabled(level) {
    return (this[CHILD] ?? this[PARENT]).isLevelEnabled(level);
  }

  child(bindings, options) {
    return this.pino.child(bindings, options);
  }

  bindings() {
    return this.pino.bindings();
  }
}
for (const method of LOG_METHODS) {
  LazyRequestLogger.prototype[method] = function log(...args) {
    if (this.isLevelEnabled(method)) this.pino[method](...args);
  };
}

/**
 * Fastify's `childLoggerFactory`: the request's logger, made lazily (`LazyRequestLogger`) unless
 * the route asks for its own level or serializers, which only a real child can carry.
 */
export function lazyChildLogger(logger, bindings, options) {
  const own = options && (options.level !== undefined || options.serializers !== undefined);
  if (own || typeof logger.isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings);
}

/**
 * Fastify server options for request ids: ours (genReqId) instead of Fastify's counter, and no
 * header taken on trust (Fastify's `requestIdHeader` would use any value as it came); request
 * loggers made only when used (`lazyChildLogger`).
 */
export const requestIdOptions = { requestIdHeader: false, genReqId, childLoggerFactory: lazyChildLogger };

const requestScope = new AsyncLocalStorage();

/** The id of the request being handled, for calls to other services; undefined outside one. */
export function currentRequestId() {
  return requestScope.getStore();
}

/** Runs `fn` as part of the request `id` (e.g. a queued job that one request started). */
export function runWithRequestId(id, fn) {
  return requestScope.run(id, fn);
}

/** Paths a load balancer or `npm start` asks every few seconds. */
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);
const STATIC_ASSET = /\.(?:m?js|css|map|json|html|png|jpe?g|gif|svg|webp|avif|ico|woff2?|ttf|otf|wasm|txt|webmanifest)$/i;

/**
 * The level of a request's line: `debug` for a health check and, where `staticAssets`, a file
 * fetched with GET or HEAD; `info` for everything else, and for any of those that failed (≥ 400).
 */
export function requestLogLevel({ method, url, statusCode }, { staticAssets = false } = {}) {
  if (statusCode >= 400) return 'info';
  const path = String(url ?? '/').split('?')[0];
  if (HEALTH_PATHS.has(path)) return 'debug';
  if (staticAssets && (method === 'GET' || method === 'HEAD') && STATIC_ASSET.test(path)) return 'debug';
  return 'info';
}

/**
 * Adds the portal's request logging to a Fastify app built with `requestIdOptions` and Fastify's
 * own request lines switched off (`new LogController({ disableRequestLogging: true })`): every
 * answer carries its id in X-Request-Id, the handler runs with `currentRequestId()` set, and one
 * `request completed` line is written per answer, with `fields(request)` (e.g. the user) added.
 * Call before any route is registered.
 *
 * @param {import('fastify').FastifyInstance} app
 * @param {{ staticAssets?: boolean, fields?: (request: import('fastify').FastifyRequest) => object }} [options]
 */
export function logRequests(app, { staticAssets = false, fields } = {}) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  // After body parsing, whose stream events would lose an async scope entered earlier.
  app.addHook('preHandler', (request, _reply, done) => requestScope.run(request.id, done));
  app.addHook('onResponse', (request, reply, done) => {
    // `info` is the highest level a request line has: a server set above it writes none. (A
    // logger without levels, e.g. Fastify's silent one, is asked as before.)
    if (typeof request.log.isLevelEnabled === 'function' && !request.log.isLevelEnabled('info')) {
      done();
      return;
    }
    const level = requestLogLevel(
      { method: request.method, url: request.url, statusCode: reply.statusCode },
      { staticAssets },
    );
    request.log[level](
      { req: request, res: reply, responseTime: Math.round(reply.elapsedTime), ...fields?.(request) },
      'request completed',
    );
    done();
  });
}
