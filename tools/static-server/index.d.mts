import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SecurityHeadersOptions } from '@portal/service-kit';

export { ConfigError, Env, loadOrExit, readEnv, Type } from '@portal/service-kit';
export { createLtiFrameAncestors, FRAME_ORIGINS_TTL_MS, isFrameOrigin, type LtiFrameAncestors } from '@portal/service-kit';

export const LISTEN_ENV: Record<'HOST_LISTEN' | 'TRUST_PROXY', unknown>;
export const STRICT_CSP: Record<string, string[]>;

export function inlineScriptHashes(file: string): string[];

/** X-Forwarded-For, -Proto and -Host as this server passes them on to its upstream. */
export function forwardedHeaders(request: FastifyRequest): {
  'x-forwarded-for': string;
  'x-forwarded-proto': string;
  'x-forwarded-host': string;
};

export interface StaticServerOptions {
  name: string;
  root: string;
  port: number;
  host?: string;
  spa?: boolean;
  cors?: boolean;
  configJson?: () => unknown;
  proxy?: { prefix: string; upstream: string };
  csp?: Record<string, string[]>;
  cspByPath?: Record<string, Record<string, string[]>>;
  /** Overrides of `csp` for every path under a prefix, asked on each answer (e.g. frame-ancestors that change). */
  cspByPrefix?: Record<string, () => Record<string, string[]>>;
  referrerPolicy?: SecurityHeadersOptions['referrerPolicy'];
  trustProxy?: false | number | string[];
  logger?: boolean | object;
  closeOnSignals?: boolean;
  /** GET /metrics answers only this bearer token; unset = 404. */
  metricsToken?: string;
}

export function startStaticServer(options: StaticServerOptions): Promise<FastifyInstance>;
