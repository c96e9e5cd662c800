import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config';

test('embedded defaults match the portal layout', () => {
  assert.deepEqual(loadConfig({}), { port: 8090, host: 'localhost', apiUrl: 'http://localhost:3000', logLevel: 'info' });
});

test('environment overrides are read and checked', () => {
  const config = loadConfig({ SIMULATOR_PORT: '0', SIMULATOR_HOST: '0.0.0.0', API_URL: 'https://api.example/', LOG_LEVEL: 'warn' });
  assert.deepEqual(config, { port: 0, host: '0.0.0.0', apiUrl: 'https://api.example', logLevel: 'warn' });
  assert.throws(() => loadConfig({ SIMULATOR_PORT: 'eighty' }), ConfigError);
  assert.throws(() => loadConfig({ API_URL: 'localhost:3000' }), ConfigError);
  assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), ConfigError);
  assert.throws(
    () => loadConfig({ SIMULATOR_PORT: '70000', API_URL: 'ftp://api.example', LOG_LEVEL: 'loud' }),
    (error: Error) =>
      error instanceof ConfigError &&
      /SIMULATOR_PORT: must be a port number between 0 and 65535/.test(error.message) &&
      /API_URL: must use http or https/.test(error.message) &&
      /LOG_LEVEL: must be one of/.test(error.message),
    'every bad variable is named in one message',
  );
  assert.equal(loadConfig({ SIMULATOR_PORT: '' }).port, 8090);
});
