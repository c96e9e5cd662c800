import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createLocalStorage } from '../../storage/local-storage';
import type { Storage } from '../../storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files, evidence images and installers; the only way routes touch file bytes. */
    storage: Storage;
  }
}

/**
 * The store the configuration names: S3-compatible with STORAGE_URL, else local disk. The AWS SDK
 * is loaded only for S3: the embedded default starts without it. An S3 bucket is checked (and
 * created if so configured) before the API takes requests.
 */
export async function storageFromConfig(config: Config): Promise<Storage> {
  if (config.s3) {
    const { createS3Storage, ensureBucket } = await import('../../storage/s3-storage');
    await ensureBucket(
      {
        endpoint: config.s3.endpoint,
        bucket: config.s3.bucket,
        region: config.s3.region,
        ...(config.s3.credentials ? { credentials: config.s3.credentials } : {}),
        forcePathStyle: config.s3.forcePathStyle,
      },
      config.s3.createBucket,
    );
    return createS3Storage({
      endpoint: config.s3.endpoint,
      ...(config.s3.publicEndpoint ? { publicEndpoint: config.s3.publicEndpoint } : {}),
      bucket: config.s3.bucket,
      region: config.s3.region,
      ...(config.s3.credentials ? { credentials: config.s3.credentials } : {}),
      forcePathStyle: config.s3.forcePathStyle,
      ttlSeconds: config.signedUrlTtlSeconds,
    });
  }
  return createLocalStorage({
    dir: config.storageDir,
    ttlSeconds: config.signedUrlTtlSeconds,
    ...(config.storageSigningSecret ? { secret: config.storageSigningSecret } : {}),
  });
}

export const storagePlugin = fp(
  async (app, opts: { storage?: Storage }) => {
    app.decorate('storage', opts.storage ?? (await storageFromConfig(app.config)));
  },
  { name: 'storage', dependencies: ['config'] },
);
