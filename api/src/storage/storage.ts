import type { Readable } from 'node:stream';

export interface SignedUrlOptions {
  contentType: string;
  /** Offered as the download's file name (Content-Disposition: attachment). */
  downloadName?: string;
  /** Seconds the URL stays valid; defaults to the configured TTL. */
  ttlSeconds?: number;
}

export interface SignedQuery {
  expires?: string;
  type?: string;
  name?: string;
  sig?: string;
}

/**
 * Where file bytes live: local disk (the embedded default) or an S3-compatible store. Routes and
 * seeds touch bytes only through this, so the two are interchangeable by configuration.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, data: Buffer, contentType?: string): Promise<void>;
  /**
   * Pipes `body` into the object without holding it in memory (installers reach 2 GB). The
   * object exists only once the stream ended cleanly: when `body` errors, nothing is kept and
   * the promise rejects with that error. Answers the bytes written.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<number>;
  remove(key: string): Promise<void>;
  /**
   * A short-lived URL that serves the object without a bearer token: a path under the API
   * origin (local disk) or a presigned GET of the store (S3).
   */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string>;
  /**
   * Checks the query of a URL the API serves itself (GET /api/v1/storage/…); null when forged,
   * expired, or when the store serves its own URLs (S3 checks its signatures itself).
   */
  verify(
    key: string,
    query: SignedQuery,
    now?: number,
  ): { contentType: string; downloadName?: string } | null;
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
}

const KEY_PATTERN = /^[a-z0-9-]+(\/[A-Za-z0-9._-]+)+$/;

export function isValidStorageKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

/** Shown in an <img> on the portal's pages; nothing else a user uploads is ever rendered inline. */
export const INLINE_TYPES = new Set(['image/png', 'image/jpeg']);

/**
 * The Content-Disposition a served file gets: a named download is always saved; an unnamed PNG
 * or JPEG may show in an <img>.
 */
export function contentDisposition(contentType: string, downloadName?: string): string {
  const name = downloadName ? `; filename*=UTF-8''${encodeURIComponent(downloadName)}` : '';
  const inline = !downloadName && INLINE_TYPES.has(contentType.toLowerCase());
  return `${inline ? 'inline' : 'attachment'}${name}`;
}
