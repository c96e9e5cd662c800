import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isValidStorageKey, type Storage } from './storage';

// The interface's home is storage.ts; these names stay importable from here for existing callers.
export {
  isValidStorageKey,
  type SignedQuery,
  type SignedUrlOptions,
  type Storage,
} from './storage';

/** Where signed URLs point; the API serves them (proxied by the host as same-origin /api). */
export const SIGNED_FILE_ROUTE = '/api/v1/storage';

/**
 * Files on local disk with HMAC-signed, expiring URLs that the API serves itself: the embedded
 * default. `STORAGE_URL` puts an S3-compatible store behind the same interface (s3-storage.ts).
 */
export function createLocalStorage(options: {
  dir: string;
  /** HMAC key; a random one per process means URLs die with the process, which is fine locally. */
  secret?: string;
  ttlSeconds: number;
}): Storage {
  const root = resolve(options.dir);
  const secret = options.secret ?? randomBytes(32).toString('hex');

  const pathOf = (key: string) => {
    if (!isValidStorageKey(key)) throw new Error(`Invalid storage key "${key}"`);
    const path = resolve(join(root, key));
    if (!path.startsWith(root + sep)) throw new Error(`Storage key escapes the root: "${key}"`);
    return path;
  };
  const sign = (key: string, expires: string, type: string, name: string) =>
    createHmac('sha256', secret).update(`${key}\n${expires}\n${type}\n${name}`).digest('base64url');

  return {
    kind: 'local',
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    },
    async putStream(key, body) {
      // The body may fail while the folder is made; pipeline() below reports that error, this
      // keeps it from being thrown as an unhandled 'error' event meanwhile.
      const early = () => undefined;
      body.on('error', early);
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written beside the target and renamed when complete, so a reader never sees half a file
      // and a failed stream leaves nothing under the key.
      const partial = `${path}.${randomUUID()}.part`;
      let bytes = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(body, counter, out);
        await rename(partial, path);
      } catch (error) {
        // A body refused on its first chunk can fail the pipeline before the file is even open;
        // the stream still opens (creating the file) and then closes, so wait for that first.
        if (!out.closed) {
          out.destroy();
          await new Promise<void>((resolve) => out.once('close', () => resolve()));
        }
        await rm(partial, { force: true });
        throw error;
      } finally {
        body.off('error', early);
      }
      return bytes;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async signedUrl(key, { contentType, downloadName = '', ttlSeconds = options.ttlSeconds }) {
      pathOf(key);
      const expires = String(Math.floor(Date.now() / 1000) + ttlSeconds);
      const query = new URLSearchParams({ expires, type: contentType });
      if (downloadName) query.set('name', downloadName);
      query.set('sig', sign(key, expires, contentType, downloadName));
      return `${SIGNED_FILE_ROUTE}/${key}?${query}`;
    },
    verify(key, query, now = Date.now()) {
      if (!isValidStorageKey(key) || !query.expires || !query.type || !query.sig) return null;
      const expires = Number(query.expires);
      if (!Number.isInteger(expires) || expires * 1000 < now) return null;
      const expected = Buffer.from(sign(key, query.expires, query.type, query.name ?? ''));
      const given = Buffer.from(query.sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      return { contentType: query.type, ...(query.name ? { downloadName: query.name } : {}) };
    },
    async open(key) {
      const path = pathOf(key);
      try {
        const info = await stat(path);
        if (!info.isFile()) return null;
        return { stream: createReadStream(path), size: info.size };
      } catch {
        return null;
      }
    },
  };
}
