import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StaticDecode, TObject, TInteger, TOptional, TString, TTransform, TUnion, TLiteral, StringOptions, IntegerOptions } from '@sinclair/typebox';
import type { Counter, CounterConfiguration, Gauge, GaugeConfiguration, Histogram, HistogramConfiguration, Registry } from 'prom-client';

export { Type } from '@sinclair/typebox';

export class ConfigError extends Error {
  name: 'ConfigError';
}

/** The loader's result; on a ConfigError prints its message and exits with status 1. */
export function loadOrExit<T>(load: () => T): T;

/** Environment variables named by `schema`, decoded; throws ConfigError listing every problem. */
export function readEnv<T extends TObject>(schema: T, env?: NodeJS.ProcessEnv | Record<string, string | undefined>): StaticDecode<T>;

/** Whether browsers keep `SameSite=None; Secure` cookies set by `url`'s origin (https, or http on loopback). */
export function keepsCrossSiteCookies(url: string): boolean;
/** Cookie attributes that come back inside another site's frame where browsers allow it: None + Secure, else Lax. */
export function crossSiteCookieAttributes(url: string): { secure: boolean; sameSite: 'none' | 'lax' };

/** How long a fetched list of framing origins stands. */
export const FRAME_ORIGINS_TTL_MS: number;
/** https, or http on a loopback host: scheme://host[:port] and nothing else. */
export function isFrameOrigin(value: unknown): value is string;
/** The registered learning platforms' origins (the API's GET /api/lti/frame-origins), kept fresh. */
export interface LtiFrameAncestors {
  refresh(): Promise<void>;
  keepFresh(): Promise<void>;
  /** The frame-ancestors sources for this answer (`'none'` while the list is empty). */
  directive(): string[];
}
export function createLtiFrameAncestors(options: {
  apiUrl: string;
  ttlMs?: number;
  now?: () => number;
  fetchImpl?: typeof fetch;
  onError?: (error: unknown) => void;
}): LtiFrameAncestors;

/** What replaces a secret value in a log line. */
export const REDACTED: '[redacted]';
/** Whether a query parameter's value is a secret (token, code, state, X-Amz-*, signature …). */
export function isSecretParameter(name: string): boolean;
/** Whether a header's value is a secret (Authorization, Cookie, Set-Cookie …). */
export function isSecretHeader(name: string): boolean;
/** The URL (or any text) with the values of secret query parameters masked; the path stays. */
export function redactUrl<T>(text: T): T;
/** A copy of the headers with secret values masked. */
export function redactHeaders<T>(headers: T): T;

export interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  remoteAddress?: string;
  headers?: Record<string, unknown>;
}
/** The request as a log line shows it (Fastify request or Node IncomingMessage). */
export function serializeRequest(req: { method?: string; url?: string; host?: string; ip?: string; headers?: Record<string, unknown>; socket?: { remoteAddress?: string } }): LoggedRequest;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pino's SerializerFn takes any value; a narrower one is not assignable to it
type Serializer = (value: any) => unknown;

/** pino options (also Fastify's `logger` option) with the portal's redaction; `options` merged in. */
export function logOptions<T extends object>(options?: T & { serializers?: Record<string, Serializer>; redact?: { paths?: string[] } }): T & {
  serializers: Record<string, Serializer>;
  redact: { paths: string[]; censor: string };
  hooks: { logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void): void };
};

/** Fastify's `logger` option with the redaction added: false stays off, true/undefined = `defaults`. */
export function serverLogOptions<D extends object, O extends object>(
  option: boolean | O | undefined,
  defaults?: D,
): false | ReturnType<typeof logOptions<D & O>>;

/** The header that carries a request's id between the portal's services: `x-request-id`. */
export const REQUEST_ID_HEADER: 'x-request-id';
/** Whether a caller's request id may be used as ours: 1 to 64 of `A-Z a-z 0-9 . _ : -`. */
export function isSafeRequestId(value: unknown): value is string;
/** Fastify's `genReqId`: the incoming X-Request-Id when it is safe, otherwise a fresh UUID. */
export function genReqId(req: IncomingMessage | { headers?: Record<string, unknown> }): string;
/** Fastify options: ids from `genReqId`, no header taken on trust. */
/** Fastify's `childLoggerFactory`: a request logger that becomes pino's child only when it writes. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed loosely, as `logRequests` is: service-kit does not depend on Fastify
export function lazyChildLogger(logger: any, bindings: Record<string, unknown>, options?: any): any;
export const requestIdOptions: {
  requestIdHeader: false;
  genReqId: typeof genReqId;
  childLoggerFactory: typeof lazyChildLogger;
};
/** The id of the request being handled (inside its handler), otherwise undefined. */
export function currentRequestId(): string | undefined;
/** Runs `fn` as part of request `id`. */
export function runWithRequestId<T>(id: string, fn: () => T): T;
/** `debug` for successful health checks and (with `staticAssets`) static files, else `info`. */
export function requestLogLevel(
  request: { method?: string; url?: string; statusCode: number },
  options?: { staticAssets?: boolean },
): 'debug' | 'info';
/**
 * One `request completed` line per answer (level by `requestLogLevel`), X-Request-Id on every
 * answer, `currentRequestId()` set in handlers; `fields(request)` adds e.g. the user.
 */
export function logRequests<R = unknown>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's addHook is overloaded per hook name; any Fastify instance fits
  app: { addHook: (...args: any[]) => unknown },
  options?: { staticAssets?: boolean; fields?: (request: R) => Record<string, unknown> },
): void;

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export const Env: {
  Port(defaultPort?: number): TInteger;
  Integer(options: IntegerOptions & { minimum: number; maximum?: number }): TInteger;
  HttpUrl(options?: StringOptions): TTransform<TString, string>;
  Origins(options?: StringOptions): TTransform<TString, string[]>;
  LogLevel(defaultLevel?: LogLevel): TUnion<TLiteral<LogLevel>[]>;
  TrustProxy(): TTransform<TString, false | number | string[]>;
  /** METRICS_TOKEN: optional, at least 16 characters. */
  MetricsToken(): TOptional<TString>;
  /** SHUTDOWN_GRACE_SECONDS: 1–3600, default 25. */
  ShutdownGraceSeconds(): TInteger;
  /** SHUTDOWN_DRAIN_SECONDS: 0–600, default `defaultSeconds` (0). */
  ShutdownDrainSeconds(defaultSeconds?: number): TInteger;
};

export interface ShutdownLogger {
  info(object: object, message: string): void;
  error(objectOrMessage: unknown, message?: string): void;
}

export interface CloseOnSignals {
  /**
   * Runs the close as if `signal` had come (none: as a signal other than SIGTERM, so without
   * the drain delay).
   */
  close(signal?: NodeJS.Signals): void;
  /** Removes the process listeners (tests). */
  uninstall(): void;
}

/**
 * Closes the process cleanly on SIGTERM/SIGINT through close-with-grace; `delay` ms is the
 * deadline. With a `lifecycle` it drains first and, on SIGTERM, stays open `drainDelay` ms.
 */
export function closeOnSignals(
  options: { logger: ShutdownLogger; delay?: number; lifecycle?: Lifecycle; drainDelay?: number },
  close: () => Promise<unknown>,
): CloseOnSignals;

/** Whether the process is draining (asked to stop), and who is told when it starts. */
export interface Lifecycle {
  readonly draining: boolean;
  /** Starts draining (idempotent); listeners run once. */
  drain(): void;
  /** `listener` runs when draining starts (at once if it has). */
  onDrain(listener: () => void): void;
}
export function createLifecycle(): Lifecycle;

/** A readiness check that has not answered within this long counts as failed (2 s). */
export const READINESS_TIMEOUT_MS: number;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's instance is generic over its type provider; any instance fits
type FastifyLike = any;

/**
 * GET /readyz: 200 `{status:"ready"}`, else 503 `{status:"unavailable", reason}`: `draining`, the
 * reason `check` returns, or `failureReason` when it throws or outlasts `timeoutMs`. While
 * draining every answer carries `Connection: close`.
 */
export function serveReadiness(
  app: FastifyLike,
  options: {
    lifecycle: Lifecycle;
    check?: () => Promise<string | null | undefined>;
    failureReason?: string;
    timeoutMs?: number;
    routeConfig?: Record<string, unknown>;
    schema?: Record<string, unknown>;
  },
): void;

/** /metrics and /readyz (draining only) for a server without dependencies to check; returns its lifecycle. */
export function serveOperationEndpoints(
  app: FastifyLike,
  options: {
    service: string;
    metricsToken: string | undefined;
    lifecycle?: Lifecycle;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's request and reply, of any instance
    notFound?: (request: any, reply: any) => unknown;
  },
): Lifecycle;

/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE: '(unmatched)';

export interface Metrics {
  registry: Registry;
  counter<L extends string>(options: Omit<CounterConfiguration<L>, 'registers'>): Counter<L>;
  gauge<L extends string>(options: Omit<GaugeConfiguration<L>, 'registers'>): Gauge<L>;
  histogram<L extends string>(options: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L>;
  /** `http_request_duration_seconds{method, route, status_code}`. */
  httpRequestDuration: SeriesHistogram<'method' | 'route' | 'status_code'>;
}

/** A histogram whose hot path names its series by a key the caller already has; reads out as prom-client's. */
export class SeriesHistogram<L extends string = string> {
  constructor(options: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[] });
  readonly name: string;
  readonly help: string;
  /** Counts `value` in series `key`; `labels()` is called the first time the key is seen. */
  observeKeyed(key: string, labels: () => Partial<Record<L, string | number>>, value: number): void;
  reset(): void;
  get(): Promise<unknown>;
}

/** Per-request counts kept as numbers and added to a prom-client counter when it is read. */
export function pendingCounts(): {
  /** The function that adds one to the series with these labels. */
  counter(labels: Record<string, string>): () => void;
  /** Pass as the counter's `collect`. */
  collect(this: Counter<string>): void;
};
/** The process's registry (label `service`), Node's default metrics and the request histogram. */
export function createMetrics(service: string): Metrics;
/** Constant-time comparison of a given token with the expected one. */
export function tokenMatches(given: string, expected: string): boolean;
/** Times every answer and serves GET /metrics: 404 without `token`, 401 without its bearer. */
export function serveMetrics(
  app: FastifyLike,
  options: {
    metrics: Metrics;
    token: string | undefined;
    routeConfig?: Record<string, unknown>;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's request and reply, of any instance
    notFound?: (request: any, reply: any) => unknown;
  },
): void;

/** helmet CSP directives, camelCase or kebab-case: `{ scriptSrc: ["'self'"] }`. */
export type CspDirectives = Record<string, Iterable<string>>;

export interface SecurityHeadersOptions {
  /** Must include default-src; object-src, base-uri and frame-ancestors default to 'none'. */
  csp: CspDirectives;
  /** Default `no-referrer`. */
  referrerPolicy?: 'no-referrer' | 'same-origin' | 'strict-origin' | 'strict-origin-when-cross-origin' | 'origin';
  /** Default `same-origin`. */
  crossOriginResourcePolicy?: 'same-origin' | 'same-site' | 'cross-origin';
  /** Default `same-origin`; false sends none. */
  crossOriginOpenerPolicy?: 'same-origin' | 'same-origin-allow-popups' | 'unsafe-none' | false;
  /** Default one year. */
  hstsMaxAge?: number;
  /** Node middleware only: whether X-Forwarded-Proto of this request is believed. Default false. */
  trustProxy?: boolean | ((req: IncomingMessage) => boolean);
}

interface FastifyLikeRequest {
  protocol: string;
}
interface FastifyLikeReply {
  hasHeader(name: string): boolean;
  header(name: string, value: string): unknown;
}

export interface SecurityHeaders {
  /** Every header but HSTS, as sent. */
  headers: ReadonlyMap<string, string>;
  /** The HSTS value sent on https responses. */
  hsts: string;
  isHttps(req: IncomingMessage): boolean;
  /** Fills the headers in when the head is written; headers the handler set win. */
  middleware(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  /** Fills a Fastify reply's headers in; headers the route set win. */
  fillReply(request: FastifyLikeRequest, reply: FastifyLikeReply): void;
  /** Fastify onSend hook; headers the route set win. */
  onSend<P>(request: FastifyLikeRequest, reply: FastifyLikeReply, payload: P): Promise<P>;
  /** The same as a callback-style onSend hook (no promise per answer). */
  onSendHook<P>(
    request: FastifyLikeRequest,
    reply: FastifyLikeReply,
    payload: P,
    done: (error: Error | null, payload: P) => void,
  ): void;
}

export function securityHeaders(options: SecurityHeadersOptions): SecurityHeaders;

/** Markup that is already safe to insert (built by `html`). */
export class SafeHtml {
  constructor(value: string);
  readonly value: string;
  toString(): string;
}

export function escapeHtml(text: string): string;

export type Interpolation = SafeHtml | string | number | null | undefined | false | readonly Interpolation[];

/** Template tag that escapes every interpolated value unless it is SafeHtml. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml;
