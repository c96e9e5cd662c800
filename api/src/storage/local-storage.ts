import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

/** Where signed URLs point; the API serves them (proxied by the host as same-origin /api). */
export const SIGNED_FILE_ROUTE = '/api/v1/storage';

export interface SignedUrlOptions {
  contentType: string;
  /** Offered as the download's file name (Content-Disposition: attachment). */
  downloadName?: string;
  /** Seconds the URL stays valid; defaults to the configured TTL. */
  ttlSeconds?: number;
}

export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  /** A short-lived URL (path relative to the API origin) that serves the object without a token. */
  signedUrl(key: string, options: SignedUrlOptions): string;
  /** Checks a signed URL's query; returns what to serve or null when forged or expired. */
  verify(key: string, query: SignedQuery, now?: number): { contentType: string; downloadName?: string } | null;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
}

export interface SignedQuery {
  expires?: string;
  type?: string;
  name?: string;
  sig?: string;
}

const KEY_PATTERN = /^[a-z0-9-]+(\/[A-Za-z0-9._-]+)+$/;

export function isValidStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

/**
 * Files on local disk with HMAC-signed, expiring URLs: the embedded default. A production
 * deployment would put an S3-compatible store behind the same interface.
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
    async put(key, data) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data);
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    signedUrl(key, { contentType, downloadName = '', ttlSeconds = options.ttlSeconds }) {
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
