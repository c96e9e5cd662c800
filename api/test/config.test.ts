import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config';

describe('loadConfig', () => {
  test('an empty environment gives the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, undefined);
    assert.match(config.pgliteDir, /api\/\.data\/pglite$/);
    assert.equal(config.oidcIssuer, 'http://localhost:8180/realms/main');
    assert.equal(config.oidcClientId, 'frontend');
    assert.equal(config.seedDemo, true);
    assert.equal(config.logLevel, 'info');
  });

  test('values are converted from text', () => {
    const config = loadConfig({
      API_PORT: '4010',
      SEED_DEMO: 'false',
      OIDC_ISSUER: 'https://sso.example.org/realms/main/',
      DATABASE_URL: 'postgres://u:p@db:5432/portal',
      LOG_LEVEL: 'warn',
    });
    assert.equal(config.port, 4010);
    assert.equal(config.seedDemo, false);
    assert.equal(
      config.oidcIssuer,
      'https://sso.example.org/realms/main',
      'trailing slash dropped',
    );
    assert.equal(config.databaseUrl, 'postgres://u:p@db:5432/portal');
    assert.equal(config.logLevel, 'warn');
  });

  test('an empty variable counts as unset', () => {
    assert.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, undefined);
  });

  test('bad values fail with every problem named', () => {
    assert.throws(
      () => loadConfig({ API_PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /API_PORT/.test(error.message) &&
        /DATABASE_URL/.test(error.message) &&
        /LOG_LEVEL/.test(error.message),
    );
  });
});
