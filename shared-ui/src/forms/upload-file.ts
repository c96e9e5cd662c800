// One multipart upload with progress. fetch cannot report upload progress in every browser
// (streamed request bodies need HTTP/2 and duplex), so this is XMLHttpRequest, following the
// API client's conventions (shared-auth): bearer token, X-XSRF-TOKEN from the XSRF-TOKEN cookie
// on the unsafe method, same-origin credentials, JSON answers.

export interface UploadResult {
  status: number;
  body: unknown;
}

export interface UploadOptions {
  url: string;
  file: File;
  /** The raw access token (shared-auth's `useAuth().getAccessToken()`); refreshed by the caller. */
  accessToken: string;
  /** 0..1 as the bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The multipart field, `file` for every upload route of the API. */
  field?: string;
}

export const XSRF_COOKIE_NAME = 'XSRF-TOKEN';
export const XSRF_HEADER_NAME = 'X-XSRF-TOKEN';

export function readCookie(name: string, cookie: string = document.cookie): string | null {
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

function parseBody(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text) return null;
  if (!(xhr.getResponseHeader('Content-Type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Resolves with any HTTP answer; rejects on a network failure or when aborted. */
export function uploadFile({ url, file, accessToken, onProgress, signal, field = 'file' }: UploadOptions): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', new URL(url, window.location.href).toString());
    xhr.withCredentials = false;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    const xsrf = readCookie(XSRF_COOKIE_NAME);
    if (xsrf) xhr.setRequestHeader(XSRF_HEADER_NAME, xsrf);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      onProgress?.(1);
      resolve({ status: xhr.status, body: parseBody(xhr) });
    });
    xhr.addEventListener('error', () => reject(new Error('Upload failed')));
    xhr.addEventListener('abort', () => reject(new DOMException('Upload aborted', 'AbortError')));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const body = new FormData();
    body.append(field, file, file.name);
    xhr.send(body);
  });
}
