// The host page's policy and the API's S3 store (#9): browsers load presigned URLs straight from
// the store, so its public origin must be in img-src and connect-src — and nothing when the API
// keeps files on local disk (it serves them under /api, the page's own origin).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostContentSecurityPolicy, readServerConfig } from '../../../host/server-config.mjs';

const policy = (env) => hostContentSecurityPolicy(readServerConfig(env));

test('local disk storage adds no origin to the policy', () => {
  const csp = policy({});
  assert.deepEqual(readServerConfig({}).storageOrigins, []);
  assert.deepEqual(csp.imgSrc, ["'self'", 'data:', 'blob:', 'http://localhost:8081', 'http://localhost:8082', 'http://localhost:8083']);
  assert.ok(!csp.connectSrc.some((source) => source.includes('9000')));
});

test('the store the API signs URLs for is allowed for images and fetches', () => {
  const internalOnly = policy({ STORAGE_URL: 'http://127.0.0.1:9000', STORAGE_BUCKET: 'portal-files' });
  assert.ok(internalOnly.imgSrc.includes('http://127.0.0.1:9000'));
  assert.ok(internalOnly.connectSrc.includes('http://127.0.0.1:9000'));

  // STORAGE_PUBLIC_URL is what browsers reach; the internal endpoint is not theirs.
  const withPublic = policy({
    STORAGE_URL: 'http://minio.internal:9000',
    STORAGE_PUBLIC_URL: 'https://files.example.com/store/',
    STORAGE_BUCKET: 'portal-files',
  });
  assert.ok(withPublic.imgSrc.includes('https://files.example.com'));
  assert.ok(withPublic.connectSrc.includes('https://files.example.com'));
  assert.ok(!withPublic.imgSrc.some((source) => source.includes('minio.internal')));
  // Scripts, frames and form posts never come from the store.
  for (const directive of ['scriptSrc', 'frameSrc', 'formAction', 'defaultSrc']) {
    assert.ok(!withPublic[directive].includes('https://files.example.com'), directive);
  }
});

test('with the bucket in the host name (no path style), its subdomain is the origin', () => {
  const csp = policy({
    STORAGE_URL: 'https://s3.eu-central-1.amazonaws.com',
    STORAGE_BUCKET: 'portal-files',
    STORAGE_FORCE_PATH_STYLE: 'false',
  });
  assert.ok(csp.imgSrc.includes('https://portal-files.s3.eu-central-1.amazonaws.com'));
  assert.ok(!csp.imgSrc.includes('https://s3.eu-central-1.amazonaws.com'));
});
