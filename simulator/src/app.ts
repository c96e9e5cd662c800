import Fastify, { type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import { CaptureStore } from './web/capture-store';
import { document, html } from './web/html';
import { launchRoutes } from './web/launch-routes';

export interface SimulatorAppOptions {
  /** Origin of the API (no /api/v1). */
  apiUrl: string;
  logger?: FastifyServerOptions['logger'];
  store?: CaptureStore;
}

/** The launch link's token must not end up in log files. */
export function redactToken(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

const requestSerializer = (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
  method: request.method,
  url: redactToken(request.url),
  hostname: request.hostname,
  remoteAddress: request.ip,
});

/** The simulator's web side: the launch page the portal opens, and its health check. */
export async function buildSimulatorApp({ apiUrl, logger = true, store = new CaptureStore() }: SimulatorAppOptions) {
  const app = Fastify({
    logger: logger === false ? false : { ...(typeof logger === 'object' ? logger : {}), serializers: { req: requestSerializer } },
    // Forms are tiny; the largest is three numbers and the token.
    bodyLimit: 16 * 1024,
  });
  await app.register(formbody);
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(launchRoutes, { apiUrl, store });

  app.get<{ Querystring: { token?: string } }>('/', async (request, reply) => {
    const token = request.query.token?.trim();
    // An older link form (`/?token=…`) still reaches the launch page.
    if (token) return reply.redirect(`/launch?token=${encodeURIComponent(token)}`, 302);
    reply.header('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
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
