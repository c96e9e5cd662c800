import Fastify from 'fastify';

/**
 * The simulator's web side. The launch loop (join a session with its token, capture evidence,
 * complete) arrives with the learner's-loop issue; until then the page tells a visitor how it
 * is opened.
 */
export function buildSimulatorApp({ logger = true }: { logger?: boolean | object } = {}) {
  const app = Fastify({ logger });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/', async (request, reply) => {
    const token = (request.query as { token?: string }).token;
    reply.header('Content-Security-Policy', "frame-ancestors 'none'; default-src 'self'");
    reply.type('text/html; charset=utf-8');
    return page(token ? 'A session link was received. Joining sessions arrives with the simulation launch.' : 'Open this simulator from the portal: choose a simulation and press Desktop or VR.');
  });
  return app;
}

function page(message: string): string {
  const escaped = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Simulator</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem">
<h1>Simulator</h1><p>${escaped}</p></body></html>`;
}
