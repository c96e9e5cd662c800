import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../src/config';

export const TEST_BUCKET = 'portal-test';

/**
 * An S3-compatible server (s3rver, in this process) on a free port of 127.0.0.1 with an empty
 * bucket: the tests' stand-in for a real store. It speaks S3's REST API, multipart uploads and
 * presigned GETs with their expiry; unlike a real store it does not check SigV4 signatures.
 */
export async function startS3Server(): Promise<{ config: S3Config; close(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  return {
    config: {
      endpoint: `http://127.0.0.1:${port}`,
      publicEndpoint: undefined,
      bucket: TEST_BUCKET,
      region: 'us-east-1',
      // s3rver's built-in account.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
      createBucket: false,
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
