// OpenTelemetry tracing for the API and the bundled identity provider. Imported only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (server.ts imports it dynamically), so a process without a
// collector loads none of the SDK. Must run before the modules it instruments are imported:
// the servers import their app only after `startTracing` resolved.
import { register } from 'node:module';
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';

/**
 * Starts the SDK: spans of incoming and outgoing HTTP (node:http, undici and fetch), PostgreSQL
 * statements (pg), exported over OTLP/HTTP to `endpoint` (`…/v1/traces` is appended, as the
 * OTLP specification says for the base endpoint). Other OTEL_* variables (headers, sampler,
 * resource attributes) are read by the SDK itself. Returns the SDK, whose `shutdown()` flushes.
 */
export async function startTracing({ serviceName, endpoint }) {
  // ES modules are instrumented through import-in-the-middle's loader hook; CommonJS through
  // require-in-the-middle, which the SDK installs itself.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const sdk = new NodeSDK({
    serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes every few seconds would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ''),
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
    // Traces only: metrics are Prometheus's (/metrics), logs are the JSON lines.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return sdk;
}

/**
 * Names each incoming request's span by its route template (`GET /api/v1/sessions/:uuid`), as
 * the HTTP semantic conventions ask, instead of the bare method: a Fastify onRequest hook.
 */
export function nameSpansByRoute(app) {
  app.addHook('onRequest', (request, _reply, done) => {
    const span = trace.getActiveSpan();
    const route = request.routeOptions?.url;
    if (span && route) {
      span.updateName(`${request.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    done();
  });
}
