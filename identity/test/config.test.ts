import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import pino from 'pino';

import { ConfigError, loadConfig } from '../src/config';
import { createUserStore } from '../src/accounts/users';

describe('configuration', () => {
  it('defaults to the documented ports, issuer, origins and token lifetime', () => {
    const config = loadConfig({ IDENTITY_DEV_MODE: 'true' });
    assert.equal(config.port, 8180);
    assert.equal(config.issuer, 'http://localhost:8180/realms/main');
    // The e2e suite's second host (:8088) is trusted only when the test stack asks for it.
    assert.deepEqual(config.frontendOrigins, ['http://localhost:8080']);
    assert.equal(config.accessTokenTtl, 300);
    assert.equal(config.cookieKeys.length, 1);
    // No secret, no service client; no SMTP, the local outbox.
    assert.equal(config.serviceClientSecret, undefined);
    assert.equal(config.smtpUrl, undefined);
    assert.equal(config.productName, 'Simulation Portal');
    assert.equal(config.devMode, true);
    assert.equal(config.seedDemo, false, 'no demo accounts unless SEED_DEMO says so');
  });

  it('refuses a drain as long as the grace, which would cut off the requests in flight', () => {
    const env = { IDENTITY_DEV_MODE: 'true', SHUTDOWN_GRACE_SECONDS: '20' };
    assert.equal(loadConfig({ ...env, SHUTDOWN_DRAIN_SECONDS: '5' }).shutdownDrainMs, 5000);
    assert.throws(
      () => loadConfig({ ...env, SHUTDOWN_DRAIN_SECONDS: '20' }),
      (error: Error) =>
        error instanceof ConfigError && /SHUTDOWN_DRAIN_SECONDS: 20 must be less than SHUTDOWN_GRACE_SECONDS \(20\)/.test(error.message),
    );
  });

  it('refuses to start outside development mode without SMTP (the outbox would hand out set-password links)', () => {
    assert.throws(
      () => loadConfig({}),
      (error: Error) => error instanceof ConfigError && /SMTP_URL: required outside development mode/.test(error.message),
    );
    assert.throws(() => loadConfig({ IDENTITY_DEV_MODE: 'false' }), /SMTP_URL: required/);
    const production = loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' });
    assert.equal(production.devMode, false);
    assert.equal(loadConfig({ IDENTITY_DEV_MODE: 'true', SEED_DEMO: 'true' }).seedDemo, true);
  });

  it('reads the service client secret and the SMTP server', () => {
    const config = loadConfig({
      IDENTITY_SERVICE_CLIENT_SECRET: 's'.repeat(32),
      SMTP_URL: 'smtps://mailer:secret@mail.example.com:465',
      MAIL_FROM: 'Portal <portal@example.com>',
    });
    assert.equal(config.serviceClientSecret, 's'.repeat(32));
    assert.equal(config.smtpUrl, 'smtps://mailer:secret@mail.example.com:465');
    assert.equal(config.mailFrom, 'Portal <portal@example.com>');
    assert.throws(() => loadConfig({ IDENTITY_SERVICE_CLIENT_SECRET: 'short' }), /IDENTITY_SERVICE_CLIENT_SECRET: must be at least 16/);
    assert.throws(() => loadConfig({ SMTP_URL: 'http://mail.example.com' }), /SMTP_URL: must use smtp: or smtps:/);
  });

  it('reads the environment and normalises origins and the issuer', () => {
    const config = loadConfig({
      IDENTITY_DEV_MODE: 'true',
      IDENTITY_PORT: '9000',
      IDENTITY_ISSUER: 'http://127.0.0.1:9000/realms/main/',
      FRONTEND_ORIGINS: ' http://localhost:3001/ , http://localhost:3001,https://portal.example ',
      ACCESS_TOKEN_TTL: '60',
      IDENTITY_DATA_DIR: '',
    });
    assert.equal(config.port, 9000);
    assert.equal(config.issuer, 'http://127.0.0.1:9000/realms/main');
    assert.deepEqual(config.frontendOrigins, ['http://localhost:3001', 'https://portal.example']);
    assert.equal(config.accessTokenTtl, 60);
    assert.equal(config.dataDir, null);
  });

  it('refuses bad values with a message naming the variable', () => {
    assert.throws(() => loadConfig({ IDENTITY_PORT: 'eighty' }), (error: Error) => error instanceof ConfigError && /IDENTITY_PORT/.test(error.message));
    assert.throws(() => loadConfig({ ACCESS_TOKEN_TTL: '-5' }), /ACCESS_TOKEN_TTL/);
    assert.throws(() => loadConfig({ FRONTEND_ORIGINS: 'http://localhost:8080/app' }), /origin only/);
    assert.throws(() => loadConfig({ FRONTEND_ORIGINS: ' , ' }), /at least one origin/);
    assert.throws(() => loadConfig({ IDENTITY_ISSUER: 'http://localhost:8180' }), /realm path/);
    assert.throws(() => loadConfig({ IDENTITY_COOKIE_KEYS: 'short' }), /IDENTITY_COOKIE_KEYS: entries must be at least 16/);
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL: must be one of/);
  });

  it('lists every bad variable in one message', () => {
    assert.throws(
      () => loadConfig({ IDENTITY_PORT: '70000', FRONTEND_ORIGINS: 'ftp://portal.example', ACCESS_TOKEN_TTL: 'soon' }),
      (error: Error) =>
        error instanceof ConfigError &&
        /IDENTITY_PORT: must be a port number/.test(error.message) &&
        /FRONTEND_ORIGINS: must use http or https/.test(error.message) &&
        /ACCESS_TOKEN_TTL: must be a whole number between 10 and 86400/.test(error.message),
    );
  });
});

describe('demo credentials', () => {
  it('accepts the demo password for a demo email only', async () => {
    const users = await createUserStore({ dataDir: null, logger: pino({ level: 'silent' }), seedDemo: true });
    assert.deepEqual((await users.verifyCredentials('Educator@demo.test ', 'demo1234'))?.roles, ['educator']);
    assert.equal(await users.verifyCredentials('educator@demo.test', 'demo12345'), undefined);
    assert.equal(await users.verifyCredentials('educator@demo.test', ''), undefined);
    assert.equal(await users.verifyCredentials('someone@demo.test', 'demo1234'), undefined);
  });
});
