// The host's one reader of process.env. A bad value stops the server at start, not in a browser.
import { Env, LISTEN_ENV, readEnv, Type } from '@portal/static-server';

/** @typedef {import('@portal/contract').RuntimeConfig} RuntimeConfig */

export const HostEnvSchema = Type.Object({
  HOST_PORT: Env.Port(8080),
  ...LISTEN_ENV,
  API_URL: Env.HttpUrl({ default: 'http://localhost:3000' }),
  OIDC_ISSUER: Env.HttpUrl({ default: 'http://localhost:8180/realms/main' }),
  OIDC_CLIENT_ID: Type.String({ minLength: 1, default: 'frontend' }),
  REMOTE_SIMULATION_URL: Env.HttpUrl({ default: 'http://localhost:8081/remoteEntry.js' }),
  REMOTE_REPORTS_URL: Env.HttpUrl({ default: 'http://localhost:8082/remoteEntry.js' }),
  REMOTE_ADMIN_URL: Env.HttpUrl({ default: 'http://localhost:8083/remoteEntry.js' }),
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
  LAUNCH_TIMEOUT_MS: Env.Integer({ minimum: 1, default: 30000 }),
  SESSION_POLL_MS: Env.Integer({ minimum: 1, default: 1000 }),
});

export function readServerConfig(env = process.env) {
  const raw = readEnv(HostEnvSchema, env);
  return {
    port: raw.HOST_PORT,
    listenHost: raw.HOST_LISTEN,
    trustProxy: raw.TRUST_PROXY,
    apiUrl: raw.API_URL,
    oidcIssuer: raw.OIDC_ISSUER,
    oidcClientId: raw.OIDC_CLIENT_ID,
    remotes: {
      simulation: raw.REMOTE_SIMULATION_URL,
      reports: raw.REMOTE_REPORTS_URL,
      admin: raw.REMOTE_ADMIN_URL,
    },
    productName: raw.PRODUCT_NAME,
    version: raw.APP_VERSION,
    brightspaceHost: raw.BRIGHTSPACE_HOST ?? null,
    launch: {
      simulatorUrl: raw.SIMULATOR_URL === '' ? null : raw.SIMULATOR_URL,
      launchTimeoutMs: raw.LAUNCH_TIMEOUT_MS,
      statusPollMs: raw.SESSION_POLL_MS,
    },
  };
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
    connectSrc: ["'self'", identity, ...remotes],
    frameSrc: ["'self'", identity],
    // remote-simulation serves its catalogue images from its own origin.
    imgSrc: ["'self'", 'data:', 'blob:', ...remotes],
    // styled-components and ag-grid insert <style> elements at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  };
}
