import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config';

describe('stand-in configuration', () => {
  it('defaults to port 8100, issuer http://localhost:8100, the portal on 8080, test endpoints off', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8100);
    assert.equal(config.publicUrl, 'http://localhost:8100');
    assert.equal(config.portalUrl, 'http://localhost:8080');
    assert.equal(config.toolJwksUrl, 'http://localhost:8080/api/lti/jwks');
    assert.equal(config.clientId, 'portal-tool');
    assert.equal(config.deploymentId, 'demo-deployment');
    assert.equal(config.brightspaceClientId, 'portal-brightspace');
    assert.equal(config.brightspaceClientSecret, null);
    assert.equal(config.testEndpoints, false);
    assert.equal(config.dataDir, '.data');
    assert.equal(loadConfig({ LMS_DATA_DIR: 'memory://' }).dataDir, null);
  });

  it('follows LMS_PORT for the issuer unless LMS_URL names it, and strips trailing slashes', () => {
    assert.equal(loadConfig({ LMS_PORT: '9100' }).publicUrl, 'http://localhost:9100');
    const config = loadConfig({ LMS_URL: 'https://lms.example/', PORTAL_URL: 'https://portal.example/', LMS_TEST_ENDPOINTS: '1' });
    assert.equal(config.publicUrl, 'https://lms.example');
    assert.equal(config.portalUrl, 'https://portal.example');
    assert.equal(config.testEndpoints, true);
  });

  it('reads the embedded frame\'s further origins, and refuses one that is not an http(s) URL', () => {
    assert.deepEqual(loadConfig({}).frameOrigins, []);
    assert.deepEqual(loadConfig({ LMS_FRAME_ORIGINS: 'http://localhost:8180/realms/main, https://id.example' }).frameOrigins, ['http://localhost:8180', 'https://id.example']);
    assert.throws(() => loadConfig({ LMS_FRAME_ORIGINS: 'http://ok.example javascript:alert(1)' }), (error: Error) => error instanceof ConfigError && /LMS_FRAME_ORIGINS: javascript:alert\(1\) is not an http\(s\) URL/.test(error.message));
    assert.throws(() => loadConfig({ LMS_FRAME_ORIGINS: 'not a url' }), ConfigError);
  });

  it('refuses a bad URL, port, short secret or test switch at start', () => {
    for (const env of [{ PORTAL_URL: 'ftp://x' }, { LMS_PORT: 'abc' }, { BRIGHTSPACE_CLIENT_SECRET: 'short' }, { LMS_TEST_ENDPOINTS: 'yes' }]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
  });
});
