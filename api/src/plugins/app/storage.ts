import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createLocalStorage } from '../../storage/local-storage';
import { createS3Storage } from '../../storage/s3-storage';
import type { Storage } from '../../storage/storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files, evidence images and installers; the only way routes touch file bytes. */
    storage: Storage;
  }
}

/** The store the configuration names: S3-compatible with STORAGE_URL, else local disk. */
export function storageFromConfig(config: Config): Storage {
  if (config.s3) {
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
    app.decorate('storage', opts.storage ?? storageFromConfig(app.config));
  },
  { name: 'storage', dependencies: ['config'] },
);
