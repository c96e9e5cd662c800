// The host's server configuration is plain Node read by this package's server; tested here,
// beside it, because the host's own test runner (jest) covers its browser code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../index.mjs';
import { hostContentSecurityPolicy, readServerConfig, toRuntimeConfig } from '../../../host/server-config.mjs';

test('an empty environment gives the documented local layout', () => {
  const config = readServerConfig({});
  assert.equal(config.port, 8080);
  assert.equal(config.listenHost, 'localhost');
  assert.equal(config.trustProxy, false);
  assert.equal(config.apiUrl, 'http://localhost:3000');
  assert.equal(config.oidcIssuer, 'http://localhost:8180/realms/main');
  assert.deepEqual(config.remotes, {
    simulation: 'http://localhost:8081/remoteEntry.js',
    reports: 'http://localhost:8082/remoteEntry.js',
    admin: 'http://localhost:8083/remoteEntry.js',
  });
  assert.equal(config.brightspaceHost, null);
  assert.deepEqual(config.launch, { simulatorUrl: 'http://localhost:8090', launchTimeoutMs: 30000, statusPollMs: 1000 });
  assert.equal(toRuntimeConfig(config).apiBaseUrl, '');
});

test('values are read, normalised, and an empty SIMULATOR_URL means the products\' own protocols', () => {
  const config = readServerConfig({
    HOST_PORT: '9000',
    OIDC_ISSUER: 'https://sso.example/realms/main/',
    BRIGHTSPACE_HOST: 'https://lms.example/',
    SIMULATOR_URL: '',
    LAUNCH_TIMEOUT_MS: '4000',
    TRUST_PROXY: '1',
  });
  assert.equal(config.port, 9000);
  assert.equal(config.oidcIssuer, 'https://sso.example/realms/main');
  assert.equal(config.brightspaceHost, 'https://lms.example');
  assert.equal(config.launch.simulatorUrl, null);
  assert.equal(config.launch.launchTimeoutMs, 4000);
  assert.equal(config.trustProxy, 1);
});

test('bad values stop the start with every variable named', () => {
  assert.throws(
    () => readServerConfig({ HOST_PORT: '80000', API_URL: 'localhost:3000', REMOTE_ADMIN_URL: 'admin', SESSION_POLL_MS: '0' }),
    (error) =>
      error instanceof ConfigError &&
      /HOST_PORT: must be a port number/.test(error.message) &&
      /API_URL: must use http or https/.test(error.message) &&
      /REMOTE_ADMIN_URL: must be an absolute http\(s\) URL/.test(error.message) &&
      /SESSION_POLL_MS: must be a whole number of at least 1/.test(error.message),
  );
});

test('the host policy allows scripts, images and strings from the configured remotes and talks to the identity provider', () => {
  const csp = hostContentSecurityPolicy(
    readServerConfig({
      OIDC_ISSUER: 'https://sso.example/realms/main',
      REMOTE_SIMULATION_URL: 'https://sim.example/v2/remoteEntry.js',
      REMOTE_REPORTS_URL: 'https://reports.example/remoteEntry.js',
      REMOTE_ADMIN_URL: 'https://reports.example/admin/remoteEntry.js',
    }),
  );
  assert.deepEqual(csp.scriptSrc, ["'self'", 'https://sim.example', 'https://reports.example']);
  assert.deepEqual(csp.imgSrc, ["'self'", 'data:', 'blob:', 'https://sim.example', 'https://reports.example']);
  // Each remote's strings load from its origin (locales/{lng}/{namespace}.json).
  assert.deepEqual(csp.connectSrc, ["'self'", 'https://sso.example', 'https://sim.example', 'https://reports.example']);
  assert.deepEqual(csp.frameSrc, ["'self'", 'https://sso.example']);
  assert.deepEqual(csp.objectSrc, ["'none'"]);
  assert.deepEqual(csp.baseUri, ["'none'"]);
  assert.deepEqual(csp.frameAncestors, ["'none'"]);
  // The deep linking answer reaches the platform through the API's return page (same origin).
  assert.deepEqual(csp.formAction, ["'self'"]);
});
