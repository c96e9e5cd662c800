import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config';
import { storageFromConfig } from '../../src/plugins/app/storage';
import { ensureBucket, StorageUnavailableError } from '../../src/storage/s3-storage';
import { startS3Server, TEST_BUCKET } from './s3-server';

/** The API's start-up check of its S3 bucket, against s3rver on 127.0.0.1. */
describe('S3 bucket check at start', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  before(async () => {
    s3 = await startS3Server();
  });
  after(() => s3.close());

  const env = (bucket: string, extra: Record<string, string> = {}) => ({
    STORAGE_URL: s3.config.endpoint,
    STORAGE_BUCKET: bucket,
    STORAGE_ACCESS_KEY_ID: 'S3RVER',
    STORAGE_SECRET_ACCESS_KEY: 'S3RVER',
    ...extra,
  });

  test('an existing bucket passes and the store works', async () => {
    const storage = await storageFromConfig(loadConfig(env(TEST_BUCKET)));
    assert.equal(storage.kind, 's3');
    await storage.put('user/bucket-check.csv', Buffer.from('a,b\n'), 'text/csv');
    const opened = await storage.open('user/bucket-check.csv');
    assert.equal(opened?.size, 4);
    opened?.stream.destroy();
  });

  test('a missing bucket fails the start, naming the bucket, the store and the setting', async () => {
    await assert.rejects(storageFromConfig(loadConfig(env('no-such-bucket'))), (error: unknown) => {
      assert.ok(error instanceof StorageUnavailableError);
      assert.match(error.message, /bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist/);
      assert.match(error.message, /STORAGE_CREATE_BUCKET=true/);
      return true;
    });
  });

  test('with STORAGE_CREATE_BUCKET a missing bucket is created, once', async () => {
    const config = loadConfig(env('created-at-start', { STORAGE_CREATE_BUCKET: 'true' }));
    const storage = await storageFromConfig(config);
    await storage.put('user/created.csv', Buffer.from('x'), 'text/csv');
    assert.equal((await storage.open('user/created.csv'))?.size, 1);
    // A second process finds it there.
    assert.equal(await ensureBucket({ ...s3.config, bucket: 'created-at-start' }, true), 'exists');
  });

  test('a store that does not answer fails the start with a clear message', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    await assert.rejects(
      ensureBucket({ ...s3.config, endpoint: `http://127.0.0.1:${port}` }, false),
      (error: unknown) =>
        error instanceof StorageUnavailableError &&
        /bucket "portal-test" at http:\/\/127\.0\.0\.1:\d+ could not be checked/.test(error.message),
    );
  });
});
