import fp from 'fastify-plugin';
import { createLocalStorage, type Storage } from '../../storage/local-storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploaded files, evidence images and installers; the only way routes touch file bytes. */
    storage: Storage;
  }
}

export const storagePlugin = fp(
  async (app, opts: { storage?: Storage }) => {
    const { config } = app;
    app.decorate(
      'storage',
      opts.storage ??
        createLocalStorage({
          dir: config.storageDir,
          ttlSeconds: config.signedUrlTtlSeconds,
          ...(config.storageSigningSecret ? { secret: config.storageSigningSecret } : {}),
        }),
    );
  },
  { name: 'storage', dependencies: ['config'] },
);
