// Serves one built front-end app from its own port, the way its own deployment would: the host
// (SPA fallback, runtime /config.json, /api proxied to the API) or a remote (CORS, so any host
// origin may load its remoteEntry.js). Kept in one place so host and remotes behave alike.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { LogController } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyHttpProxy from '@fastify/http-proxy';
import fastifyCompress from '@fastify/compress';
import {
  closeOnSignals,
  Env,
  logRequests,
  REQUEST_ID_HEADER,
  requestIdOptions,
  securityHeaders,
  serveOperationEndpoints,
  serverLogOptions,
  Type,
} from '@portal/service-kit';

// Host and remotes read their environment with the portal's one mechanism; re-exported because
// their server files depend on this package only.
export { ConfigError, Env, loadOrExit, readEnv, Type } from '@portal/service-kit';
// The host's frame-ancestors for /lti/ pages (host/lti-frame-ancestors.mjs).
export { createLtiFrameAncestors, FRAME_ORIGINS_TTL_MS, isFrameOrigin } from '@portal/service-kit';

/** What every static server reads besides its port. */
export const LISTEN_ENV = {
  // 'localhost' listens on both 127.0.0.1 and ::1, whichever the browser resolves.
  HOST_LISTEN: Type.String({ minLength: 1, default: 'localhost' }),
  // Proxies in front of this server whose X-Forwarded-* are believed: for HSTS behind a
  // TLS-terminating proxy, and for the client address, protocol and host the host's /api proxy
  // passes on to the API. Default: none (the socket's peer is the client).
  TRUST_PROXY: Env.TrustProxy(),
  // GET /metrics on this server's own port answers only this bearer token; unset = no /metrics.
  METRICS_TOKEN: Env.MetricsToken(),
};

/** A remote's files need nothing but themselves; a host passes its own policy. */
export const STRICT_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  frameAncestors: ["'none'"],
};

/**
 * CSP sources (`'sha256-…'`) of the inline scripts of a built HTML file, so a page such as the
 * silent sign-in check may run its own script without allowing inline script in general.
 */
export function inlineScriptHashes(file) {
  const html = readFileSync(file, 'utf8');
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
}

/** Headers that describe the client to an upstream: only this server may say what they are. */
const FORWARDED_HEADER = /^(x-forwarded-|forwarded$|x-real-ip$)/;

function withoutForwarded(headers) {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !FORWARDED_HEADER.test(name.toLowerCase())),
  );
}

/**
 * What the upstream (the API) learns about the browser: its address, and the protocol and host it
 * asked for. Whatever a client sent under these names is replaced, so nobody picks their own
 * address: X-Forwarded-For is the socket's peer, or, when this server trusts proxies in front of
 * it (TRUST_PROXY), the chain it believes — the client first, then each trusted proxy, then the
 * peer — so an upstream that trusts this server and those proxies arrives at the same client.
 * Protocol and host are as this server believes them (the last trusted proxy's word, or its own).
 *
 * @param {import('fastify').FastifyRequest} request
 */
export function forwardedHeaders(request) {
  // Fastify's `ips` (proxy-addr) runs from the socket's peer outwards and ends at the first
  // address not trusted; without trusted proxies it is unset and `ip` is the peer.
  const chain = request.ips ?? [request.ip];
  return {
    'x-forwarded-for': [...chain].reverse().join(', '),
    'x-forwarded-proto': request.protocol,
    'x-forwarded-host': request.host,
  };
}

/**
 * Fastify 5 trusts nobody for a bare hop count (it cannot check the peer), so TRUST_PROXY=2 would
 * silently mean "no proxy"; as a function it means what it says: the nearest `n` hops.
 */
function trustProxyOption(trust) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

const NO_CACHE =
  /(^|\/)(index\.html|remoteEntry\.js|mf-manifest\.json|config\.json|silent-check-sso\.html)$|^\/locales\//;

/**
 * @param {{
 *   name: string, root: string, port: number, host?: string, spa?: boolean, cors?: boolean,
 *   configJson?: () => unknown, proxy?: { prefix: string, upstream: string },
 *   csp?: Record<string, string[]>, cspByPath?: Record<string, Record<string, string[]>>,
 *   cspByPrefix?: Record<string, () => Record<string, string[]>>,
 *   referrerPolicy?: import('@portal/service-kit').SecurityHeadersOptions['referrerPolicy'],
 *   trustProxy?: false | number | string[], logger?: boolean | object,
 *   closeOnSignals?: boolean, metricsToken?: string,
 * }} options `cspByPath` overrides directives of `csp` for single paths (e.g. a page that may be
 *   framed); `cspByPrefix` for every path under a prefix, asked on each answer (the host's `/lti/`
 *   pages, whose frame-ancestors follow the registered learning platforms); `trustProxy` (Fastify's) decides whether X-Forwarded-Proto may ask for HSTS and
 *   which client address, protocol and host the proxy passes on (forwardedHeaders).
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
  csp = STRICT_CSP,
  cspByPath = {},
  cspByPrefix = {},
  referrerPolicy = 'same-origin',
  trustProxy = false,
  logger = { level: process.env.LOG_LEVEL ?? 'info' },
  closeOnSignals: handleSignals = true,
  metricsToken,
}) {
  const app = Fastify({
    logger: serverLogOptions(logger === false ? false : { ...logger, name }),
    trustProxy: trustProxyOption(trustProxy),
    ...requestIdOptions,
    // One line per answer (logRequests) instead of Fastify's two; files and /healthz at debug.
    logController: new LogController({ disableRequestLogging: true }),
  });
  logRequests(app, { staticAssets: true });
  // Own /metrics and /readyz, never the API's: the proxy below only serves paths under its
  // prefix, and a path with `.`/`..` segments is refused before it could be resolved upstream
  // (test/operations.test.mjs).
  const lifecycle = serveOperationEndpoints(app, {
    service: name,
    metricsToken,
    // Not the SPA shell a client route would get: without a token there is no such resource.
    notFound: (_request, reply) => reply.code(404).send({ detail: 'Not found.' }),
  });
  app.decorate('lifecycle', lifecycle);
  const absRoot = path.resolve(root);

  const headerOptions = (directives) => ({
    csp: directives,
    referrerPolicy,
    // A remote's scripts and images are loaded by pages of other origins.
    crossOriginResourcePolicy: cors ? 'cross-origin' : 'same-origin',
  });
  const defaultHeaders = securityHeaders(headerOptions(csp));
  const pathHeaders = new Map(
    Object.entries(cspByPath).map(([urlPath, override]) => [
      urlPath,
      securityHeaders(headerOptions({ ...csp, ...override })),
    ]),
  );
  // Built headers per override, so a prefix's answers cost a lookup while its directives stay the same.
  const builtHeaders = new Map();
  const prefixHeaders = (urlPath) => {
    const prefix = Object.keys(cspByPrefix).find((p) => urlPath.startsWith(p));
    if (prefix === undefined) return undefined;
    const override = cspByPrefix[prefix]();
    const key = `${prefix} ${JSON.stringify(override)}`;
    let headers = builtHeaders.get(key);
    if (!headers) {
      if (builtHeaders.size > 100) builtHeaders.clear();
      headers = securityHeaders(headerOptions({ ...csp, ...override }));
      builtHeaders.set(key, headers);
    }
    return headers;
  };
  const proxied = (urlPath) =>
    proxy && (urlPath === proxy.prefix || urlPath.startsWith(`${proxy.prefix}/`));

  app.addHook('onSend', async (request, reply, payload) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    // The API's answers keep the API's own headers: it knows which of its responses are files.
    if (proxied(urlPath)) return payload;
    const headers = pathHeaders.get(urlPath) ?? prefixHeaders(urlPath) ?? defaultHeaders;
    await headers.onSend(request, reply, payload);
    if (cors) reply.header('Access-Control-Allow-Origin', '*');
    if (!reply.hasHeader('Cache-Control')) {
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
      // The answer's own request line says it all; no "fetching"/"received" lines around it.
      disableRequestLogging: true,
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => ({
          ...withoutForwarded(headers),
          ...forwardedHeaders(request),
          // The API logs the browser's action under the id this server logged it with.
          [REQUEST_ID_HEADER]: request.id,
        }),
      },
    });
  }

  // Cache headers are ours (above): hashed assets immutable, entry points revalidated.
  await app.register(fastifyStatic, {
    root: absRoot,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
  });

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    // Client-side routes get the app shell; a missing asset is a real 404.
    if (spa && request.method === 'GET' && !path.extname(urlPath) && !urlPath.startsWith('/api/')) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.' });
  });

  if (handleSignals) closeOnSignals({ logger: app.log, lifecycle }, () => app.close());

  await app.listen({ port, host });
  return app;
}
