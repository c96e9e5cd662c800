import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import {
  logRequests,
  requestIdOptions,
  securityHeaders,
  serveOperationEndpoints,
  serverLogOptions,
  type Lifecycle,
} from '@portal/service-kit';
import { CaptureStore } from './web/capture-store';
import { document, html } from './web/html';
import { launchRoutes } from './web/launch-routes';

export interface SimulatorAppOptions {
  /** Origin of the API (no /api/v1). */
  apiUrl: string;
  logger?: FastifyServerOptions['logger'];
  store?: CaptureStore;
  /** GET /metrics answers only this bearer token; unset = 404. */
  metricsToken?: string;
  lifecycle?: Lifecycle;
}

/**
 * The simulator's pages run no script: plain HTML forms, our stylesheet and the captured images,
 * all from this origin. No-referrer because the launch URL carries the session token.
 */
const SIMULATOR_CSP = {
  defaultSrc: ["'none'"],
  imgSrc: ["'self'"],
  styleSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
};

/** The simulator's web side: the launch page the portal opens, and its health check. */
export async function buildSimulatorApp({
  apiUrl,
  logger = true,
  store = new CaptureStore(),
  metricsToken,
  lifecycle,
}: SimulatorAppOptions) {
  const app = Fastify({
    // The launch link's token must not end up in log files.
    logger: serverLogOptions(logger),
    // Forms are tiny; the largest is three numbers and the token.
    bodyLimit: 16 * 1024,
    ...requestIdOptions,
    // One line per answer (logRequests); /healthz and the launch page's files at debug.
    logController: new LogController({ disableRequestLogging: true }),
  });
  logRequests(app, { staticAssets: true });
  app.addHook('onSend', securityHeaders({ csp: SIMULATOR_CSP, referrerPolicy: 'no-referrer' }).onSend);
  await app.register(formbody);
  // Before any route, so its request timing covers every route.
  serveOperationEndpoints(app, { service: 'simulator', metricsToken, ...(lifecycle ? { lifecycle } : {}) });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(launchRoutes, { apiUrl, store });

  app.get<{ Querystring: { token?: string } }>('/', async (request, reply) => {
    const token = request.query.token?.trim();
    // An older link form (`/?token=…`) still reaches the launch page.
    if (token) return reply.redirect(`/launch?token=${encodeURIComponent(token)}`, 302);
    return reply.type('text/html; charset=utf-8').send(
      document(
        'Simulator',
        html`<h1>Simulator</h1>
<p>Open this simulator from the portal: choose a simulation and press Desktop or VR.</p>`,
      ),
    );
  });
  return app;
}

export type SimulatorApp = Awaited<ReturnType<typeof buildSimulatorApp>>;
