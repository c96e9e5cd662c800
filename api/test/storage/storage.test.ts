import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { errorsPlugin } from '../../src/plugins/app/errors';
import storageRoutes from '../../src/routes/api/v1/storage/index';
import { createLocalStorage } from '../../src/storage/local-storage';
import { createS3Storage } from '../../src/storage/s3-storage';
import type { Storage } from '../../src/storage/storage';
import { startS3Server } from './s3-server';
import { storageSuite, type Fetched } from './storage-suite';

/** The one storage suite, on local disk (served by the API's own route) and on S3 (s3rver). */

let localApp: FastifyInstance;
const local = createLocalStorage({
  dir: mkdtempSync(join(tmpdir(), 'portal-storage-suite-')),
  ttlSeconds: 60,
});
let s3: Storage;
let s3Server: Awaited<ReturnType<typeof startS3Server>>;

before(async () => {
  // Only the signed-URL route, over the storage under test: what a browser's GET reaches.
  localApp = Fastify({ logger: false });
  localApp.decorate('storage', local);
  await localApp.register(errorsPlugin);
  await localApp.register(storageRoutes, { prefix: '/api/v1/storage' });
  await localApp.ready();
  s3Server = await startS3Server();
  s3 = createS3Storage({
    ...s3Server.config,
    credentials: s3Server.config.credentials!,
    ttlSeconds: 60,
  });
});
after(async () => {
  await localApp.close();
  await s3Server.close();
});

const headersOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [
      k.toLowerCase(),
      v === undefined ? undefined : String(v),
    ]),
  );

storageSuite('local disk', () => ({
  storage: local,
  checksSignatures: true,
  async get(url): Promise<Fetched> {
    const res = await localApp.inject({ url });
    return { status: res.statusCode, body: res.rawPayload, headers: headersOf(res.headers) };
  },
}));

storageSuite('S3-compatible (s3rver on 127.0.0.1)', () => ({
  storage: s3,
  checksSignatures: false,
  async get(url): Promise<Fetched> {
    const res = await fetch(url);
    return {
      status: res.status,
      body: Buffer.from(await res.arrayBuffer()),
      headers: Object.fromEntries(res.headers),
    };
  },
}));
