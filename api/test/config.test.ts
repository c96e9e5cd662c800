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
    assert.equal(config.seedDemo, false, 'no accounts with known passwords unless asked for');
    assert.equal(config.seedDemoActivity, false);
    assert.equal(config.trustProxy, false, 'X-Forwarded-* believed from nobody');
    assert.equal(config.logLevel, 'info');
  });

  test('the abuse limits default to the documented values', () => {
    const config = loadConfig({});
    assert.equal(config.rateLimitEnabled, true);
    assert.equal(config.rateLimitWindowMs, 60_000);
    assert.deepEqual(
      [config.rateLimitPolling, config.rateLimitSessionCreate, config.rateLimitUpload],
      [600, 10, 60],
    );
    assert.equal(config.rateLimitDefault, 300);
    assert.equal(config.rateLimitLtiPerAddress, 3000);
    assert.equal(config.rateLimitAnonymousPerAddress, 6000);
    assert.equal(config.maxOpenSessionsPerUser, 5);
    assert.equal(config.maxEvidencePerSession, 200);
    assert.equal(config.maxStoredBytesPerUser, 1024 ** 3);
    assert.equal(config.sessionTokenMaxAgeSeconds, 24 * 3600);
    assert.equal(config.sessionTokenIdleSeconds, 2 * 3600);
    assert.equal(config.sessionCloseIntervalMs, 300_000);
  });

  test('the retired per-address variables stop the start, naming what replaces them', () => {
    assert.throws(
      () => loadConfig({ RATE_LIMIT_ADDRESS_USERS: '20', RATE_LIMIT_LTI: '30' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /RATE_LIMIT_ADDRESS_USERS: no longer read; .*RATE_LIMIT_ANONYMOUS_PER_ADDRESS/.test(
          error.message,
        ) &&
        /RATE_LIMIT_LTI: no longer read; .*RATE_LIMIT_LTI_PER_ADDRESS/.test(error.message),
    );
  });

  test('TRUST_PROXY is a hop count or a list of addresses, ranges and names', () => {
    assert.equal(loadConfig({ TRUST_PROXY: '0' }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy, ['loopback']);
    assert.deepEqual(
      loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.7 ,fd00::/8,Loopback' }).trustProxy,
      ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback'],
    );
    for (const bad of [
      'true',
      '*',
      '10.0.0.0/33',
      'fd00::/129',
      '10.0.0.1/8/8',
      'proxy.local',
      'a,,b',
    ]) {
      assert.throws(
        () => loadConfig({ TRUST_PROXY: bad }),
        (error: unknown) => error instanceof ConfigError && /TRUST_PROXY/.test(error.message),
        bad,
      );
    }
  });

  test('values are converted from text', () => {
    const config = loadConfig({
      API_PORT: '4010',
      SEED_DEMO: 'false',
      OIDC_ISSUER: 'https://sso.example.org/realms/main/',
      DATABASE_URL: 'postgres://u:p@db:5432/portal',
      DATABASE_POOL_SIZE: '25',
      LOG_LEVEL: 'warn',
    });
    assert.equal(config.databasePoolSize, 25);
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

  test('SEED_DEMO_ACTIVITY needs SEED_DEMO: its learners belong to the demo organisations', () => {
    assert.equal(
      loadConfig({ SEED_DEMO: 'true', SEED_DEMO_ACTIVITY: 'true' }).seedDemoActivity,
      true,
    );
    assert.throws(
      () => loadConfig({ SEED_DEMO_ACTIVITY: 'true' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /SEED_DEMO_ACTIVITY: needs SEED_DEMO=true/.test(error.message),
    );
  });

  test('an empty variable counts as unset', () => {
    assert.equal(loadConfig({ DATABASE_URL: '' }).databaseUrl, undefined);
  });

  test('file storage is local disk unless STORAGE_URL and STORAGE_BUCKET name an S3 store', () => {
    const local = loadConfig({});
    assert.equal(local.s3, null);
    assert.equal(local.installerMaxBytes, 2 * 1024 ** 3);
    assert.equal(local.licenseExpiryCheckMs, 3_600_000);
    assert.deepEqual(
      loadConfig({
        STORAGE_URL: 'http://127.0.0.1:9000/',
        STORAGE_BUCKET: 'portal-files',
        STORAGE_ACCESS_KEY_ID: 'key',
        STORAGE_SECRET_ACCESS_KEY: 'secret',
        STORAGE_FORCE_PATH_STYLE: 'false',
      }).s3,
      {
        endpoint: 'http://127.0.0.1:9000',
        publicEndpoint: undefined,
        bucket: 'portal-files',
        region: 'us-east-1',
        credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
        forcePathStyle: false,
        createBucket: false,
      },
    );
    assert.equal(
      loadConfig({
        STORAGE_URL: 'http://s3.test',
        STORAGE_BUCKET: 'b-1',
        STORAGE_CREATE_BUCKET: 'true',
      }).s3?.createBucket,
      true,
    );
    // Without keys the SDK's own chain (environment, profile, instance role) applies.
    assert.equal(
      loadConfig({ STORAGE_URL: 'https://s3.example.test', STORAGE_BUCKET: 'b-1' }).s3?.credentials,
      undefined,
    );
    for (const [env, problem] of [
      [{ STORAGE_URL: 'http://127.0.0.1:9000' }, /STORAGE_BUCKET: required with STORAGE_URL/],
      [{ STORAGE_BUCKET: 'portal-files' }, /STORAGE_BUCKET: needs STORAGE_URL/],
      [{ STORAGE_CREATE_BUCKET: 'true' }, /STORAGE_CREATE_BUCKET: needs STORAGE_URL/],
      [
        { STORAGE_URL: 'http://x.test', STORAGE_BUCKET: 'bkt', STORAGE_ACCESS_KEY_ID: 'k' },
        /give both or neither/,
      ],
      [{ STORAGE_URL: 'ftp://x.test', STORAGE_BUCKET: 'bkt' }, /STORAGE_URL/],
      [{ STORAGE_URL: 'http://x.test', STORAGE_BUCKET: 'Bad_Bucket' }, /STORAGE_BUCKET/],
      [{ INSTALLER_MAX_BYTES: String(2 * 1024 ** 3 + 1) }, /INSTALLER_MAX_BYTES/],
    ] as const) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && problem.test(error.message),
        JSON.stringify(env),
      );
    }
  });

  test('Brightspace OAuth is off unless host, client id and secret are all given; the endpoints default to D2L', () => {
    assert.equal(loadConfig({}).brightspace, null);
    const config = loadConfig({
      BRIGHTSPACE_HOST: 'https://school.brightspace.com/',
      BRIGHTSPACE_CLIENT_ID: 'portal',
      BRIGHTSPACE_CLIENT_SECRET: 'secret',
    });
    assert.deepEqual(config.brightspace, {
      host: 'https://school.brightspace.com',
      authUrl: 'https://auth.brightspace.com/oauth2/auth',
      tokenUrl: 'https://auth.brightspace.com/core/connect/token',
      clientId: 'portal',
      clientSecret: 'secret',
      apiVersion: '1.43',
    });
    const standIn = loadConfig({
      BRIGHTSPACE_HOST: 'http://localhost:8100',
      BRIGHTSPACE_AUTH_URL: 'http://localhost:8100/d2l/oauth2/auth',
      BRIGHTSPACE_TOKEN_URL: 'http://localhost:8100/d2l/oauth2/token',
      BRIGHTSPACE_CLIENT_ID: 'portal-brightspace',
      BRIGHTSPACE_CLIENT_SECRET: 'secret',
      BRIGHTSPACE_API_VERSION: '1.31',
    }).brightspace;
    assert.equal(standIn?.authUrl, 'http://localhost:8100/d2l/oauth2/auth');
    assert.equal(standIn?.tokenUrl, 'http://localhost:8100/d2l/oauth2/token');
    assert.equal(standIn?.apiVersion, '1.31');
    // The endpoints alone switch nothing on.
    assert.equal(loadConfig({ BRIGHTSPACE_AUTH_URL: 'https://auth.example/a' }).brightspace, null);
  });

  test('half a Brightspace configuration or a bad value fails at start', () => {
    const good = {
      BRIGHTSPACE_HOST: 'https://school.brightspace.com',
      BRIGHTSPACE_CLIENT_ID: 'portal',
      BRIGHTSPACE_CLIENT_SECRET: 'secret',
    };
    for (const missing of Object.keys(good)) {
      const env: Record<string, string> = { ...good };
      delete env[missing];
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.message.includes(missing),
        missing,
      );
    }
    for (const [name, value] of [
      ['BRIGHTSPACE_HOST', 'school.brightspace.com'],
      ['BRIGHTSPACE_HOST', 'https://school.brightspace.com/d2l'],
      ['BRIGHTSPACE_AUTH_URL', 'ftp://auth'],
      ['BRIGHTSPACE_TOKEN_URL', 'token'],
      ['BRIGHTSPACE_API_VERSION', 'v1'],
      ['BRIGHTSPACE_API_VERSION', '1.43/../x'],
    ] as const) {
      assert.throws(
        () => loadConfig({ ...good, [name]: value }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(name),
        `${name}=${value}`,
      );
    }
  });

  test('a drain delay that the stop grace does not outlast stops the start', () => {
    const config = loadConfig({ SHUTDOWN_DRAIN_SECONDS: '5', SHUTDOWN_GRACE_SECONDS: '25' });
    assert.deepEqual([config.shutdownDrainMs, config.shutdownGraceMs], [5000, 25_000]);
    assert.throws(
      () => loadConfig({ SHUTDOWN_DRAIN_SECONDS: '30' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        /SHUTDOWN_DRAIN_SECONDS: 30 must be less than SHUTDOWN_GRACE_SECONDS \(25\)/.test(error.message),
    );
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
