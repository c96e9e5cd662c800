import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { ConfigError, Env, readEnv } from '../index.mjs';

const Schema = Type.Object({
  PORT: Env.Port(8080),
  API_URL: Env.HttpUrl({ default: 'http://localhost:3000/' }),
  ORIGINS: Env.Origins({ default: 'http://localhost:8080' }),
  LOG_LEVEL: Env.LogLevel(),
  TIMEOUT_MS: Env.Integer({ minimum: 1, default: 30000 }),
  SECRET: Type.Optional(Type.String({ minLength: 32 })),
  FLAG: Type.Boolean({ default: false }),
  // Empty has a meaning of its own here: "no simulator".
  SIMULATOR_URL: Type.Union([Type.Literal(''), Env.HttpUrl()], { default: 'http://localhost:8090', keepEmpty: true }),
  TRUST_PROXY: Env.TrustProxy(),
});

test('an empty environment gives every default, normalised', () => {
  assert.deepEqual(readEnv(Schema, {}), {
    PORT: 8080,
    API_URL: 'http://localhost:3000',
    ORIGINS: ['http://localhost:8080'],
    LOG_LEVEL: 'info',
    TIMEOUT_MS: 30000,
    FLAG: false,
    SIMULATOR_URL: 'http://localhost:8090',
    TRUST_PROXY: false,
  });
});

test('text is converted to the schema types and transforms normalise it', () => {
  const env = readEnv(Schema, {
    PORT: '0',
    API_URL: 'https://api.example/base/',
    ORIGINS: ' http://a.example:81/ , http://a.example:81,https://b.example ',
    LOG_LEVEL: 'warn',
    TIMEOUT_MS: '5',
    SECRET: 'x'.repeat(32),
    FLAG: 'true',
    TRUST_PROXY: 'loopback, 10.0.0.0/8',
  });
  assert.equal(env.PORT, 0);
  assert.equal(env.API_URL, 'https://api.example/base');
  assert.deepEqual(env.ORIGINS, ['http://a.example:81', 'https://b.example']);
  assert.equal(env.TIMEOUT_MS, 5);
  assert.equal(env.SECRET, 'x'.repeat(32));
  assert.equal(env.FLAG, true);
  assert.deepEqual(env.TRUST_PROXY, ['loopback', '10.0.0.0/8']);
  assert.equal(readEnv(Schema, { TRUST_PROXY: '2' }).TRUST_PROXY, 2);
  assert.equal(readEnv(Schema, { TRUST_PROXY: '0' }).TRUST_PROXY, false);
  assert.deepEqual(readEnv(Schema, { TRUST_PROXY: '::1,fd00::/8' }).TRUST_PROXY, ['::1', 'fd00::/8']);
  // Trusting every hop would let any client claim https or another address.
  assert.throws(() => readEnv(Schema, { TRUST_PROXY: 'true' }), /TRUST_PROXY: expected a hop count/);
  assert.throws(() => readEnv(Schema, { TRUST_PROXY: '10.0.0.0/33' }), /not "10.0.0.0\/33"/);
});

test('an empty or blank variable counts as unset, unless its schema keeps empty values', () => {
  const env = readEnv(Schema, { PORT: '', API_URL: '   ', SECRET: '', SIMULATOR_URL: '' });
  assert.equal(env.PORT, 8080);
  assert.equal(env.API_URL, 'http://localhost:3000');
  assert.equal('SECRET' in env, false);
  assert.equal(env.SIMULATOR_URL, '');
});

test('every problem is reported at once, each with the variable name and a readable reason', () => {
  let error;
  try {
    readEnv(Schema, {
      PORT: 'eighty',
      API_URL: 'localhost:3000',
      ORIGINS: 'http://localhost:8080/app',
      LOG_LEVEL: 'loud',
      TIMEOUT_MS: '0',
      SECRET: 'short',
      SIMULATOR_URL: 'ftp://sim.example',
      TRUST_PROXY: 'every one',
    });
  } catch (caught) {
    error = caught;
  }
  assert.ok(error instanceof ConfigError, 'a ConfigError');
  const lines = error.message.split('\n').slice(1).map((line) => line.trim());
  assert.deepEqual(lines, [
    'PORT: must be a port number between 0 and 65535',
    'API_URL: must use http or https, got "localhost:3000"',
    'ORIGINS: entry "http://localhost:8080/app" must be an origin only (scheme://host:port)',
    'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent',
    'TIMEOUT_MS: must be a whole number of at least 1',
    'SECRET: Expected string length greater or equal to 32',
    'SIMULATOR_URL: must use http or https, got "ftp://sim.example"',
    'TRUST_PROXY: expected a hop count or a comma list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; not "every one"',
  ]);
});

test('a port out of range, an origin list of commas only and a missing required variable are refused', () => {
  assert.throws(() => readEnv(Schema, { PORT: '65536' }), /PORT: must be a port number/);
  assert.throws(() => readEnv(Schema, { ORIGINS: ' , ' }), /ORIGINS: must list at least one origin/);
  assert.throws(() => readEnv(Schema, { API_URL: 'not a url' }), /API_URL: must be an absolute http\(s\) URL/);
  const Required = Type.Object({ NEEDED: Type.String() });
  assert.throws(() => readEnv(Required, {}), /NEEDED: is required/);
});
