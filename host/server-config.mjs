// The host's one reader of process.env. A bad value stops the server at start, not in a browser.
/** @typedef {import('@portal/contract').RuntimeConfig} RuntimeConfig */

function url(name, fallback, env) {
  const value = env[name] ?? fallback;
  try {
    return new URL(value).href.replace(/\/$/, '');
  } catch {
    throw new Error(`${name} must be an absolute URL, got "${value}"`);
  }
}

function port(name, fallback, env) {
  const raw = env[name] ?? String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new Error(`${name} must be a port number, got "${raw}"`);
  }
  return value;
}

function positiveInt(name, fallback, env) {
  const raw = env[name] ?? String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

export function readServerConfig(env = process.env) {
  const brightspace = env.BRIGHTSPACE_HOST?.trim();
  return {
    port: port('HOST_PORT', 8080, env),
    listenHost: env.HOST_LISTEN ?? 'localhost',
    apiUrl: url('API_URL', 'http://localhost:3000', env),
    oidcIssuer: url('OIDC_ISSUER', 'http://localhost:8180/realms/main', env),
    oidcClientId: env.OIDC_CLIENT_ID ?? 'frontend',
    remotes: {
      simulation: url('REMOTE_SIMULATION_URL', 'http://localhost:8081/remoteEntry.js', env),
      reports: url('REMOTE_REPORTS_URL', 'http://localhost:8082/remoteEntry.js', env),
      admin: url('REMOTE_ADMIN_URL', 'http://localhost:8083/remoteEntry.js', env),
    },
    productName: env.PRODUCT_NAME ?? 'Simulation Portal',
    version: env.APP_VERSION ?? '1.6.177-test',
    brightspaceHost: brightspace ? url('BRIGHTSPACE_HOST', brightspace, env) : null,
    launch: {
      // Embedded default: launch links open the browser simulator. SIMULATOR_URL='' (empty) makes
      // them use each product's protocol, i.e. the installed desktop/VR app.
      simulatorUrl:
        env.SIMULATOR_URL === '' ? null : url('SIMULATOR_URL', 'http://localhost:8090', env),
      launchTimeoutMs: positiveInt('LAUNCH_TIMEOUT_MS', 30000, env),
      statusPollMs: positiveInt('SESSION_POLL_MS', 1000, env),
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
