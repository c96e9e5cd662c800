// Serves one built front-end app from its own port, the way its own deployment would: the host
// (SPA fallback, runtime /config.json, /api proxied to the API) or a remote (CORS, so any host
// origin may load its remoteEntry.js). Kept in one place so host and remotes behave alike.
import path from 'node:path';
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyHttpProxy from '@fastify/http-proxy';
import fastifyCompress from '@fastify/compress';

const NO_CACHE = /(^|\/)(index\.html|remoteEntry\.js|mf-manifest\.json|config\.json|silent-check-sso\.html)$|^\/locales\//;

/**
 * @param {{
 *   name: string, root: string, port: number, host?: string, spa?: boolean, cors?: boolean,
 *   configJson?: () => unknown, proxy?: { prefix: string, upstream: string },
 *   frameAncestorsSelf?: string[], logger?: boolean | object,
 * }} options
 */
export async function startStaticServer({
  name,
  root,
  port,
  host = 'localhost',
  spa = false,
  cors = false,
  configJson,
  proxy,
  frameAncestorsSelf = [],
  logger = { level: process.env.LOG_LEVEL ?? 'info' },
}) {
  const app = Fastify({ logger: logger === false ? false : { ...logger, name } });
  const absRoot = path.resolve(root);

  app.addHook('onSend', async (request, reply, payload) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    // Framing is blocked everywhere except the pages the OIDC silent check loads in an iframe.
    const frameable = frameAncestorsSelf.includes(urlPath);
    reply.header('Content-Security-Policy', `frame-ancestors ${frameable ? "'self'" : "'none'"}`);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    if (cors) {
      reply.header('Access-Control-Allow-Origin', '*');
      reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    }
    if (!urlPath.startsWith('/api/') && !reply.hasHeader('Cache-Control')) {
      const hashed = /\.[0-9a-f]{8,}\.(js|css|png|svg|jpg|woff2?)$/.test(urlPath);
      if (NO_CACHE.test(urlPath) || (spa && !path.extname(urlPath))) {
        reply.header('Cache-Control', 'no-cache');
      } else if (hashed) {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      }
    }
    return payload;
  });

  // Bundles are text: brotli/gzip cut a first visit's transfer by roughly two thirds. The API's
  // answers pass through the proxy untouched (the API decides for itself).
  await app.register(fastifyCompress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });

  app.get('/healthz', async () => ({ status: 'ok', name }));

  if (configJson) {
    app.get('/config.json', async (_req, reply) => {
      reply.header('Cache-Control', 'no-cache');
      return configJson();
    });
  }

  if (proxy) {
    await app.register(fastifyHttpProxy, {
      upstream: proxy.upstream,
      prefix: proxy.prefix,
      rewritePrefix: proxy.prefix,
      // The API sees the browser's address for its logs and rate limits.
      xfwd: true,
    });
  }

  // Cache headers are ours (above): hashed assets immutable, entry points revalidated.
  await app.register(fastifyStatic, { root: absRoot, wildcard: true, index: ['index.html'], cacheControl: false });

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    // Client-side routes get the app shell; a missing asset is a real 404.
    if (spa && request.method === 'GET' && !path.extname(urlPath) && !urlPath.startsWith('/api/')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.' });
  });

  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);

  await app.listen({ port, host });
  return app;
}
