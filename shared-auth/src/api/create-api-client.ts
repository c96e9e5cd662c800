import type { FieldErrors } from '@portal/contract';
import type { AccessToken } from '../oidc/token-manager';
import { ApiError, NotFoundError, TokenNotFoundError, UnauthorizedError } from './errors';
import { readCookie, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from './xsrf-cookie';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | null | undefined | readonly QueryScalar[];
export type Query = Readonly<Record<string, QueryValue>>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the success rule below, e.g. an action POST that answers 200. */
  successStatus?: number | readonly number[];
}

/**
 * docs/requirements.md#calls wrapper result. A 400 resolves with `isError` and the body as `error` (field errors);
 * a 2xx other than the expected one resolves with `isSuccess: false, isError: false`.
 */
export type ApiResult<T, E = FieldErrors> =
  | { isSuccess: true; data: T; isError: false; error: null }
  | { isSuccess: false; data: T | null; isError: boolean; error: E | null };

export interface ApiClient {
  request<T, E = FieldErrors>(
    method: HttpMethod,
    path: string,
    options?: RequestOptions,
  ): Promise<ApiResult<T, E>>;
  get<T>(path: string, options?: Omit<RequestOptions, 'body'>): Promise<ApiResult<T>>;
  post<T, E = FieldErrors>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<ApiResult<T, E>>;
  put<T, E = FieldErrors>(
    path: string,
    body?: unknown,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<ApiResult<T, E>>;
  del<T = null, E = FieldErrors>(
    path: string,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<ApiResult<T, E>>;
  /** Create-or-update (docs/requirements.md#calls): PUT when `method` is 'put', otherwise POST. */
  saveResource<T, E = FieldErrors>(
    method: string,
    path: string,
    body: unknown,
    options?: Omit<RequestOptions, 'body'>,
  ): Promise<ApiResult<T, E>>;
}

export interface ApiClientOptions {
  /** '' means same origin (the host proxies /api). */
  apiBaseUrl: string;
  /** Called before every request; refreshes the token when it is about to expire. */
  getToken: () => Promise<AccessToken | null>;
  /** Called on a 401, before the error is thrown: clear the stored token. */
  onUnauthorized?: () => void | Promise<void>;
}

const SUCCESS_STATUS: Readonly<Record<HttpMethod, readonly number[]>> = {
  GET: [200],
  POST: [201],
  PUT: [200],
  PATCH: [200],
  DELETE: [200, 204],
};

const UNSAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values: readonly QueryScalar[] = Array.isArray(value) ? value : [value as QueryScalar];
    for (const v of values) params.append(key, String(v));
  }
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

function resolveUrl(apiBaseUrl: string, path: string): string {
  if (!path.startsWith('/')) {
    throw new TypeError(`API path must start with '/', got '${path}'`);
  }
  // Resolving against the page keeps '' (same origin) working where fetch wants absolute URLs.
  return new URL(`${apiBaseUrl.replace(/\/+$/, '')}${path}`, window.location.href).toString();
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  );
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient({
  apiBaseUrl,
  getToken,
  onUnauthorized,
}: ApiClientOptions): ApiClient {
  async function request<T, E = FieldErrors>(
    method: HttpMethod,
    path: string,
    { query, body, signal, successStatus }: RequestOptions = {},
  ): Promise<ApiResult<T, E>> {
    const url = resolveUrl(apiBaseUrl, withQuery(path, query));
    const token = await getToken();
    if (!token) throw new TokenNotFoundError();

    const headers = new Headers({
      Accept: 'application/json',
      Authorization: `${token.tokenType} ${token.accessToken}`,
    });
    let payload: BodyInit | undefined;
    if (body !== undefined) {
      if (isRawBody(body)) {
        // FormData sets its own multipart boundary.
        payload = body;
      } else {
        headers.set('Content-Type', 'application/json');
        payload = JSON.stringify(body);
      }
    }
    if (UNSAFE_METHODS.has(method)) {
      const xsrf = readCookie(XSRF_COOKIE_NAME);
      if (xsrf) headers.set(XSRF_HEADER_NAME, xsrf);
    }

    const response = await fetch(url, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
      signal,
    });
    const data = await readBody(response);
    const { status } = response;

    if (response.ok) {
      const expected =
        successStatus === undefined
          ? SUCCESS_STATUS[method]
          : typeof successStatus === 'number'
            ? [successStatus]
            : successStatus;
      return expected.includes(status)
        ? { isSuccess: true, data: data as T, isError: false, error: null }
        : { isSuccess: false, data: data as T, isError: false, error: null };
    }
    if (status === 400) return { isSuccess: false, data: null, isError: true, error: data as E };
    if (status === 401) {
      await onUnauthorized?.();
      throw new UnauthorizedError(data);
    }
    if (status === 403 || status === 404) throw new NotFoundError(data, status);
    throw new ApiError(status, data);
  }

  return {
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    del: (path, options) => request('DELETE', path, options),
    saveResource: (method, path, body, options) =>
      request(method.toLowerCase() === 'put' ? 'PUT' : 'POST', path, { ...options, body }),
  };
}
