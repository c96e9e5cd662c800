import { createHash } from 'node:crypto';
import type { Queryable } from '../db/driver';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin of `url` when it may go into a `frame-ancestors` list: https, or http on a loopback
 * host while the portal itself runs on plain http (development). Anything else — other schemes,
 * credentials in the URL, an unparsable value — is null: a registration's text never becomes
 * header syntax of its own (URL.origin is scheme://host[:port] and nothing more).
 */
export function frameAncestorOrigin(url: string, portalUrl: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username !== '' || parsed.password !== '') return null;
  if (parsed.protocol === 'https:') return parsed.origin;
  const devPortal = new URL(portalUrl).protocol === 'http:';
  if (parsed.protocol === 'http:' && devPortal && LOOPBACK.has(parsed.hostname)) {
    return parsed.origin;
  }
  return null;
}

export interface FrameOrigins {
  version: string;
  origins: string[];
}

/**
 * Origins of the registered platforms whose pages show the tool in a frame: each one's issuer,
 * authorization endpoint and the framing origins an administrator named (hosted Canvas serves
 * its pages from the school's address, which is neither), shape-checked, sorted, once each. `version` is a digest of the
 * list, so it changes exactly when a registration's change changes the list.
 */
export async function registeredFrameOrigins(
  q: Queryable,
  portalUrl: string,
): Promise<FrameOrigins> {
  const res = await q.query<{ issuer: string; auth_login_url: string; frame_origins: string[] }>(
    'select issuer, auth_login_url, frame_origins from lti_platforms',
  );
  const origins = new Set<string>();
  for (const row of res.rows) {
    for (const url of [row.issuer, row.auth_login_url, ...row.frame_origins]) {
      const origin = frameAncestorOrigin(url, portalUrl);
      if (origin !== null) origins.add(origin);
    }
  }
  const sorted = [...origins].sort();
  const version = createHash('sha256').update(sorted.join(' ')).digest('base64url').slice(0, 22);
  return { version, origins: sorted };
}
