// The host's one reader of process.env. A bad value stops the server at start, not in a browser.
import { Env, LISTEN_ENV, readEnv, Type } from '@portal/static-server';
import { REMOTES } from '../tools/build/remote-manifest.mjs';

/** REMOTE_{NAME}_URL: where a remote's remoteEntry.js is, by default on its own port of the manifest. */
const remoteUrlVariable = (name) => `REMOTE_${name.toUpperCase()}_URL`;
const REMOTE_URL_ENV = Object.fromEntries(
  Object.entries(REMOTES).map(([name, { devPort }]) => [
    remoteUrlVariable(name),
    Env.HttpUrl({ default: `http://localhost:${devPort}/remoteEntry.js` }),
  ]),
);

/** @typedef {import('@portal/contract').RuntimeConfig} RuntimeConfig */

export const HostEnvSchema = Type.Object({
  HOST_PORT: Env.Port(8080),
  ...LISTEN_ENV,
  API_URL: Env.HttpUrl({ default: 'http://localhost:3000' }),
  OIDC_ISSUER: Env.HttpUrl({ default: 'http://localhost:8180/realms/main' }),
  OIDC_CLIENT_ID: Type.String({ minLength: 1, default: 'frontend' }),
  ...REMOTE_URL_ENV,
  PRODUCT_NAME: Type.String({ minLength: 1, default: 'Simulation Portal' }),
  APP_VERSION: Type.String({ minLength: 1, default: '1.6.177-test' }),
  BRIGHTSPACE_HOST: Type.Optional(Env.HttpUrl()),
  // Embedded default: launch links open the browser simulator. SIMULATOR_URL='' (empty) makes
  // them use each product's protocol, i.e. the installed desktop/VR app.
  SIMULATOR_URL: Type.Union([Type.Literal(''), Env.HttpUrl()], {
    default: 'http://localhost:8090',
    keepEmpty: true,
    errorMessage: 'must be an absolute http(s) URL, or empty for the products\' own app protocols',
  }),
  // The API's S3-compatible store (same variables as the API's): browsers load presigned URLs
  // from its public endpoint (evidence images, installers), so the page's policy must allow it.
  STORAGE_URL: Type.Optional(Env.HttpUrl()),
  STORAGE_PUBLIC_URL: Type.Optional(Env.HttpUrl()),
  STORAGE_BUCKET: Type.Optional(Type.String({ minLength: 1 })),
  STORAGE_FORCE_PATH_STYLE: Type.Boolean({ default: true }),
  LAUNCH_TIMEOUT_MS: Env.Integer({ minimum: 1, default: 30000 }),
  SESSION_POLL_MS: Env.Integer({ minimum: 1, default: 1000 }),
});

export function readServerConfig(env = process.env) {
  const raw = readEnv(HostEnvSchema, env);
  return {
    port: raw.HOST_PORT,
    listenHost: raw.HOST_LISTEN,
    trustProxy: raw.TRUST_PROXY,
    metricsToken: raw.METRICS_TOKEN,
    apiUrl: raw.API_URL,
    oidcIssuer: raw.OIDC_ISSUER,
    oidcClientId: raw.OIDC_CLIENT_ID,
    remotes: Object.fromEntries(Object.keys(REMOTES).map((name) => [name, raw[remoteUrlVariable(name)]])),
    productName: raw.PRODUCT_NAME,
    version: raw.APP_VERSION,
    brightspaceHost: raw.BRIGHTSPACE_HOST ?? null,
    storageOrigins: storageOrigins(raw),
    launch: {
      simulatorUrl: raw.SIMULATOR_URL === '' ? null : raw.SIMULATOR_URL,
      launchTimeoutMs: raw.LAUNCH_TIMEOUT_MS,
      statusPollMs: raw.SESSION_POLL_MS,
    },
  };
}

/**
 * Origins the browser fetches presigned storage URLs from: none for local disk (the API serves
 * its files under /api), else the store's public endpoint (STORAGE_PUBLIC_URL, else STORAGE_URL,
 * as the API signs them) — with the bucket as a subdomain when it is not in the path.
 */
function storageOrigins(raw) {
  const endpoint = raw.STORAGE_PUBLIC_URL ?? raw.STORAGE_URL;
  if (!endpoint) return [];
  const url = new URL(endpoint);
  if (raw.STORAGE_FORCE_PATH_STYLE || !raw.STORAGE_BUCKET) return [url.origin];
  return [`${url.protocol}//${raw.STORAGE_BUCKET}.${url.host}`];
}

/** @returns {RuntimeConfig} what the browser receives as /config.json */
export function toRuntimeConfig(config) {
  return {
    productName: config.productName,
    version: config.version,
    // Same origin: this server proxies /api, so no CORS and the XSRF cookie is the page's own.
    apiBaseUrl: '',
    oidc: { authority: config.oidcIssuer, clientId: config.oidcClientId },
    remotes: config.remotes,
    brightspaceHost: config.brightspaceHost,
    launch: config.launch,
  };
}

/**
 * The host page's Content-Security-Policy (helmet directives), from the same configuration the
 * browser gets: scripts only from the host and the configured remotes; network only to the host
 * (which proxies /api), the identity provider (discovery, token endpoint) and the remotes (their
 * strings); frames only the
 * identity provider's silent sign-in check, which lands back on our own silent-check-sso.html.
 */
export function hostContentSecurityPolicy(config) {
  const identity = new URL(config.oidcIssuer).origin;
  const remotes = [...new Set(Object.values(config.remotes).map((url) => new URL(url).origin))];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", ...remotes],
    // Each remote's strings load from its origin (locales/{lng}/{namespace}.json).
    // Object storage: presigned URLs of the S3 store, when the API uses one.
    connectSrc: ["'self'", identity, ...remotes, ...(config.storageOrigins ?? [])],
    frameSrc: ["'self'", identity],
    // remote-simulation serves its catalogue images from its own origin.
    // remote-reports shows evidence images from presigned storage URLs.
    imgSrc: ["'self'", 'data:', 'blob:', ...remotes, ...(config.storageOrigins ?? [])],
    // styled-components and ag-grid insert <style> elements at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    fontSrc: ["'self'", 'data:'],
    // Forms post to this origin only. The LTI deep linking answer (a form post to the learning
    // platform's return URL) goes through the API's /api/lti/deep-link/{launchId}/return page,
    // whose own policy allows that one URL: widening this to every registered platform would let
    // any form injected into any portal page post there.
    formAction: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  };
}
