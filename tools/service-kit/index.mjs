// What every server process of the portal shares, so that the API, identity, simulator and the
// static servers read their environment, log, shut down and protect browsers the same way.
import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import closeWithGrace from 'close-with-grace';
import helmet from 'helmet';

export {
  REDACTED,
  isSecretHeader,
  isSecretParameter,
  logOptions,
  redactHeaders,
  redactUrl,
  serializeRequest,
  serverLogOptions,
} from './log.mjs';
export { crossSiteCookieAttributes, keepsCrossSiteCookies } from './cross-site-cookies.mjs';
export { createLtiFrameAncestors, FRAME_ORIGINS_TTL_MS, isFrameOrigin } from './lti-frame-ancestors.mjs';
export { createLifecycle, READINESS_TIMEOUT_MS, serveOperationEndpoints, serveReadiness } from './lifecycle.mjs';
export { createMetrics, pendingCounts, SeriesHistogram, serveMetrics, tokenMatches, UNMATCHED_ROUTE } from './metrics.mjs';
export {
  REQUEST_ID_HEADER,
  currentRequestId,
  genReqId,
  isSafeRequestId,
  lazyChildLogger,
  logRequests,
  requestIdOptions,
  requestLogLevel,
  runWithRequestId,
} from './request-log.mjs';

// ---------------------------------------------------------------------------------------------
// Environment
// ---------------------------------------------------------------------------------------------

// Plain-JS servers declare their schemas with the same TypeBox, without a dependency of their own.
export { Type };

export class ConfigError extends Error {
  name = 'ConfigError';
}

/**
 * Runs a service's config loader; a ConfigError ends the process with its message alone (the
 * operator's typo needs no stack trace), anything else is thrown on.
 */
export function loadOrExit(load) {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * Reads the variables named by `schema` (a TypeBox object) from `env`: an empty variable counts
 * as unset (as in most .env tooling) unless its schema says `keepEmpty: true`, defaults fill the
 * gaps, text is converted to the schema's types, and Transform types normalise the value. Every
 * problem is reported at once, as `NAME: message`, so one failed start shows all typos.
 * A property schema may carry `errorMessage`, used instead of TypeBox's generic wording.
 */
export function readEnv(schema, env = process.env) {
  const result = {};
  const problems = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const raw = env[name];
    const unset = raw === undefined || (raw.trim() === '' && !(property.keepEmpty && raw === ''));
    const value = Value.Convert(property, Value.Default(property, unset ? undefined : raw));
    if (value === undefined) {
      if (schema.required?.includes(name)) problems.push(`${name}: is required`);
      continue;
    }
    const error = Value.Errors(property, value).First();
    if (error) {
      problems.push(`${name}: ${property.errorMessage ?? error.message}`);
      continue;
    }
    try {
      result[name] = Value.Decode(property, value);
    } catch (decodeError) {
      // A Transform's decode throws with its own wording (e.g. "must be an origin only").
      problems.push(`${name}: ${decodeError.error?.message ?? decodeError.message}`);
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  return result;
}

function parseHttpUrl(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`must use http or https, got "${raw}"`);
  }
  return url;
}

/** Schemas of the kinds of variable the portal's services have in common. */
export const Env = {
  /** A TCP port; 0 lets the system pick one (tests). */
  Port: (defaultPort) =>
    Type.Integer({
      minimum: 0,
      maximum: 65535,
      default: defaultPort,
      errorMessage: 'must be a port number between 0 and 65535',
    }),

  /** A whole number in a range, e.g. a timeout. */
  Integer: ({ minimum, maximum, ...options }) =>
    Type.Integer({
      minimum,
      maximum,
      errorMessage:
        maximum === undefined
          ? `must be a whole number of at least ${minimum}`
          : `must be a whole number between ${minimum} and ${maximum}`,
      ...options,
    }),

  /** An absolute http(s) URL, without its trailing slash (origins and issuers compare exactly). */
  HttpUrl: (options = {}) =>
    Type.Transform(Type.String(options))
      .Decode((raw) => parseHttpUrl(raw.trim()).href.replace(/\/+$/, ''))
      .Encode((url) => url),

  /** A comma-separated list of origins (scheme://host[:port]), deduplicated. */
  Origins: (options = {}) =>
    Type.Transform(Type.String(options))
      .Decode((raw) => {
        const origins = raw
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => {
            const url = parseHttpUrl(part);
            if (url.pathname !== '/' || url.search || url.hash) {
              throw new Error(`entry "${part}" must be an origin only (scheme://host:port)`);
            }
            return url.origin;
          });
        if (origins.length === 0) throw new Error('must list at least one origin');
        return [...new Set(origins)];
      })
      .Encode((origins) => origins.join(',')),

  /**
   * The bearer token GET /metrics answers to (METRICS_TOKEN); unset = no /metrics. At least 16
   * characters, since it is all that stands between the internet and the process's figures.
   */
  MetricsToken: () =>
    Type.Optional(
      Type.String({ minLength: 16, errorMessage: 'must be at least 16 characters (or unset for no /metrics)' }),
    ),

  /** SHUTDOWN_GRACE_SECONDS: how long a stop may take before the process exits regardless. */
  ShutdownGraceSeconds: () =>
    Type.Integer({ minimum: 1, maximum: 3600, default: 25, errorMessage: 'must be a whole number between 1 and 3600' }),

  /** SHUTDOWN_DRAIN_SECONDS: how long a stopping process stays unready but open (load balancer probe interval). */
  ShutdownDrainSeconds: (defaultSeconds = 0) =>
    Type.Integer({ minimum: 0, maximum: 600, default: defaultSeconds, errorMessage: 'must be a whole number between 0 and 600' }),

  /** A pino log level. */
  LogLevel: (defaultLevel = 'info') => {
    const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
    return Type.Union(
      levels.map((level) => Type.Literal(level)),
      { default: defaultLevel, errorMessage: `must be one of ${levels.join(', ')}` },
    );
  },

  /**
   * Which proxies in front of the server are believed about the client's address and protocol
   * (Fastify's `trustProxy`, the same grammar as the API's TRUST_PROXY): unset or 0 = none, a hop
   * count, or a comma list of addresses, CIDR ranges and the names loopback, linklocal,
   * uniquelocal. "Trust everyone" is not offered: any client could then claim https or an address.
   */
  TrustProxy: () =>
    Type.Transform(Type.String({ default: '0' }))
      .Decode((raw) => {
        const value = raw.trim();
        if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
        const entries = value.split(',').map((entry) => entry.trim().toLowerCase());
        const bad = entries.filter((entry) => !isProxyEntry(entry));
        if (bad.length > 0) {
          throw new Error(
            'expected a hop count or a comma list of addresses, CIDR ranges, loopback, linklocal or ' +
              `uniquelocal; not ${bad.map((entry) => JSON.stringify(entry)).join(', ')}`,
          );
        }
        return entries;
      })
      .Encode((value) => (Array.isArray(value) ? value.join(',') : String(value || 0))),
};

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyEntry(entry) {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

// ---------------------------------------------------------------------------------------------
// Graceful shutdown
// ---------------------------------------------------------------------------------------------

/**
 * Closes the process cleanly on SIGTERM/SIGINT (and on an uncaught error) through
 * close-with-grace: `close` runs once; a second signal, or `delay` ms without finishing, exits
 * at once with status 1 so a stuck connection cannot keep the process alive forever.
 * With a `lifecycle`, the process drains first: it stops being ready at once and, on SIGTERM
 * (an orchestrator's stop, not a terminal's Ctrl-C), keeps answering for `drainDelay` ms so a load
 * balancer that probes /readyz stops sending before the port closes.
 */
export function closeOnSignals({ logger, delay = 10_000, lifecycle, drainDelay = 0 }, close) {
  // A close asked for by another process (a node:cluster supervisor that got the SIGTERM) runs
  // as that signal would: an orchestrator's stop of the whole start still waits out the drain.
  let asked;
  const grace = closeWithGrace(
    { delay, logger: { error: (message) => logger.error(message) } },
    async ({ signal: received, err }) => {
      const signal = received ?? asked;
      if (err) logger.error({ err }, 'closing after an unexpected error');
      else logger.info({ signal }, 'shutting down');
      lifecycle?.drain();
      if (lifecycle && signal === 'SIGTERM' && drainDelay > 0) {
        await new Promise((resolve) => setTimeout(resolve, drainDelay));
      }
      await close();
    },
  );
  return {
    close: (signal) => {
      asked ??= signal;
      return grace.close();
    },
    uninstall: grace.uninstall,
  };
}

// ---------------------------------------------------------------------------------------------
// Browser security headers
// ---------------------------------------------------------------------------------------------

/** The one header we cannot decide once: HSTS only means something on an https response. */
const HSTS = 'Strict-Transport-Security';

/** Runs a helmet middleware once against a recorder: our directives are the same on every request. */
function recordHeaders(middleware) {
  const headers = new Map();
  const recorder = {
    setHeader: (name, value) => headers.set(name, value),
    removeHeader: () => {},
  };
  middleware({}, recorder, (error) => {
    if (error) throw error;
  });
  return headers;
}

function frameOptionsFor(frameAncestors) {
  const list = [...(frameAncestors ?? [])];
  // X-Frame-Options for browsers without frame-ancestors; it cannot express an origin list.
  if (list.length === 1 && list[0] === "'none'") return { action: 'deny' };
  if (list.length === 1 && list[0] === "'self'") return { action: 'sameorigin' };
  return false;
}

/**
 * Builds the security headers of one kind of response with helmet. `csp` is a set of helmet
 * directives (camelCase or kebab-case); `object-src 'none'`, `base-uri 'none'` and
 * `frame-ancestors 'none'` are added unless given. Returns the header set, a Node middleware and a
 * Fastify onSend hook; both leave alone any header the handler set itself, so a route's own
 * policy (e.g. `sandbox` for user files) wins.
 *
 * @param {import('./index.d.mts').SecurityHeadersOptions} options
 */
export function securityHeaders({
  csp,
  referrerPolicy = 'no-referrer',
  crossOriginResourcePolicy = 'same-origin',
  crossOriginOpenerPolicy = 'same-origin',
  hstsMaxAge = 31_536_000,
  trustProxy = false,
}) {
  const given = Object.fromEntries(
    Object.entries(csp).map(([name, value]) => [name.replace(/-([a-z])/g, (_, c) => c.toUpperCase()), value]),
  );
  const directives = {
    ...given,
    objectSrc: given.objectSrc ?? ["'none'"],
    baseUri: given.baseUri ?? ["'none'"],
    frameAncestors: given.frameAncestors ?? ["'none'"],
  };
  const headers = recordHeaders(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives },
      referrerPolicy: { policy: referrerPolicy },
      crossOriginResourcePolicy: { policy: crossOriginResourcePolicy },
      crossOriginOpenerPolicy: crossOriginOpenerPolicy ? { policy: crossOriginOpenerPolicy } : false,
      xFrameOptions: frameOptionsFor(directives.frameAncestors),
      strictTransportSecurity: false,
    }),
  );
  const hsts = recordHeaders(helmet.strictTransportSecurity({ maxAge: hstsMaxAge })).get(HSTS);

  /** https when the socket is TLS, or when a trusted proxy says the browser used https. */
  const isHttps = (req) => {
    if (req.socket?.encrypted) return true;
    const trusted = typeof trustProxy === 'function' ? trustProxy(req) : trustProxy;
    const forwarded = String(req.headers?.['x-forwarded-proto'] ?? '').split(',')[0]?.trim();
    return Boolean(trusted) && forwarded === 'https';
  };

  const fill = (list, has, set, https) => {
    for (const [name, value] of list) if (!has(name)) set(name, value);
    if (https && !has(HSTS)) set(HSTS, hsts);
  };

  // Lower-case names, as Fastify keeps a reply's headers: set and looked up without converting.
  const lowerCased = [...headers].map(([name, value]) => [name.toLowerCase(), value]);
  const fillReply = (request, reply) =>
    fill(
      lowerCased,
      (name) => reply.hasHeader(name),
      (name, value) => reply.header(name, value),
      request.protocol === 'https',
    );

  return {
    headers,
    hsts,
    isHttps,
    /** Node (req, res, next): headers are filled in when the response head is written. */
    middleware(req, res, next) {
      const writeHead = res.writeHead;
      res.writeHead = function writeHeadWithSecurityHeaders(...args) {
        if (!res.headersSent) {
          // Headers passed to writeHead itself also count as the handler's own.
          const inline = args.find((arg) => arg && typeof arg === 'object' && !Array.isArray(arg));
          const has = (name) =>
            res.hasHeader(name) ||
            Boolean(inline && Object.keys(inline).some((key) => key.toLowerCase() === name.toLowerCase()));
          fill(headers, has, (name, value) => res.setHeader(name, value), isHttps(req));
        }
        return writeHead.apply(this, args);
      };
      next?.();
    },
    /** Fills a Fastify reply's headers in; Fastify's `request.protocol` honours its trustProxy. */
    fillReply,
    /** Fastify onSend hook (async, for callers that await it). */
    async onSend(request, reply, payload) {
      fillReply(request, reply);
      return payload;
    },
    /** The same as a callback hook: no promise per answer (the API's polls are thousands a second). */
    onSendHook(request, reply, payload, done) {
      fillReply(request, reply);
      done(null, payload);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Server-rendered pages
// ---------------------------------------------------------------------------------------------

/** Markup that is already safe to insert (built by `html`). */
export class SafeHtml {
  constructor(value) {
    this.value = value;
  }
  toString() {
    return this.value;
  }
}

export function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function render(value) {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * Template tag that escapes every interpolated value unless it is SafeHtml, so names, server
 * messages and tokens can never break out of the page (the simulator's and the LMS stand-in's pages).
 */
export function html(strings, ...values) {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}
