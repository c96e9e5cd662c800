import type { NodeSDK } from '@opentelemetry/sdk-node';

/** Starts OpenTelemetry tracing (HTTP, undici/fetch, pg) exported over OTLP/HTTP to `endpoint`. */
export function startTracing(options: { serviceName: string; endpoint: string }): Promise<NodeSDK>;

/** Names incoming request spans `METHOD /route/:template` (a Fastify onRequest hook). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Fastify instance fits
export function nameSpansByRoute(app: any): void;
