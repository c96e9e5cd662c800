import { http, HttpResponse } from 'msw';
import { createApiClient, withQuery } from '../create-api-client';
import { ApiError, NotFoundError, TokenNotFoundError, UnauthorizedError } from '../errors';
import { setupMswServer } from '../../test-utils/msw-server';

const server = setupMswServer();
const API = 'http://localhost/api/v1';

function client(
  options: { tokenType?: string; token?: string | null; onUnauthorized?: () => void } = {},
) {
  const { tokenType = 'Bearer', token = 'token-abc', onUnauthorized } = options;
  const getToken = jest.fn(async () => (token ? { accessToken: token, tokenType } : null));
  return { api: createApiClient({ apiBaseUrl: '', getToken, onUnauthorized }), getToken };
}

/** Answers every method on `path` with `status` and records what came in. */
function answer(path: string, status: number, body: unknown = { ok: true }) {
  const requests: Request[] = [];
  server.use(
    http.all(`${API}${path}`, ({ request }) => {
      requests.push(request.clone());
      if (status === 204) return new HttpResponse(null, { status });
      return HttpResponse.json(body as Record<string, unknown>, { status });
    }),
  );
  return requests;
}

afterEach(() => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

describe('success rules (docs/requirements.md#calls)', () => {
  it.each([
    ['GET', 200, true],
    ['GET', 201, false],
    ['POST', 201, true],
    ['POST', 200, false],
    ['PUT', 200, true],
    ['PUT', 201, false],
    ['DELETE', 200, true],
    ['DELETE', 204, true],
  ] as const)('%s answered %i → isSuccess %s', async (method, status, isSuccess) => {
    answer('/thing', status, { id: 7 });
    const { api } = client();

    const result = await api.request(method, '/api/v1/thing', {
      body: method === 'GET' ? undefined : {},
    });

    expect(result.isSuccess).toBe(isSuccess);
    expect(result.isError).toBe(false);
    expect(result.data).toEqual(status === 204 ? null : { id: 7 });
  });

  it('lets an action POST that answers 200 declare its own success status', async () => {
    answer('/user/brightspace-auth-reset', 200, {});
    const { api } = client();

    const result = await api.post('/api/v1/user/brightspace-auth-reset', undefined, {
      successStatus: 200,
    });

    expect(result.isSuccess).toBe(true);
  });

  it('resolves a 400 as an error result carrying the response body', async () => {
    answer('/organisation', 400, { name: ['This field is required.'] });
    const { api } = client();

    const result = await api.post('/api/v1/organisation', { name: '' });

    expect(result).toEqual({
      isSuccess: false,
      data: null,
      isError: true,
      error: { name: ['This field is required.'] },
    });
  });
});

describe('errors', () => {
  it('turns a 403 into a NotFoundError with status 404', async () => {
    answer('/organisation/3', 403, { detail: 'You do not have permission.' });
    const { api } = client();

    const error = await api.get('/api/v1/organisation/3').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      originalStatus: 403,
      body: { detail: 'You do not have permission.' },
    });
  });

  it('throws a NotFoundError on 404', async () => {
    answer('/organisation', 404, { detail: 'Invalid page.' });
    const { api } = client();

    await expect(api.get('/api/v1/organisation', { query: { page: 9 } })).rejects.toMatchObject({
      name: 'NotFoundError',
      status: 404,
      body: { detail: 'Invalid page.' },
    });
  });

  it('clears the stored token and throws on 401', async () => {
    answer('/user/whoami', 401, { detail: 'Token expired' });
    const onUnauthorized = jest.fn();
    const { api } = client({ onUnauthorized });

    await expect(api.get('/api/v1/user/whoami')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('rethrows other statuses as an ApiError with status and body', async () => {
    answer('/report', 500, { detail: 'boom' });
    const { api } = client();

    const error = await api.get('/api/v1/report').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 500, body: { detail: 'boom' } });
  });

  it("aborts with 'Token not found' when there is no token, without sending the request", async () => {
    const requests = answer('/report', 200);
    const { api } = client({ token: null });

    const error = await api.get('/api/v1/report').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TokenNotFoundError);
    expect((error as Error).message).toBe('Token not found');
    expect(requests).toHaveLength(0);
  });

  it('refuses a path that does not start with a slash', async () => {
    const { api } = client();
    await expect(api.get('api/v1/report')).rejects.toThrow("API path must start with '/'");
  });
});

describe('request headers', () => {
  it('asks for a token before every request and sends it with its token type', async () => {
    const requests = answer('/report', 200, []);
    const { api, getToken } = client({ tokenType: 'DPoP', token: 'xyz' });

    await api.get('/api/v1/report');
    await api.get('/api/v1/report');

    expect(getToken).toHaveBeenCalledTimes(2);
    expect(requests[0]?.headers.get('Authorization')).toBe('DPoP xyz');
    expect(requests[0]?.headers.get('Accept')).toBe('application/json');
    expect(requests[0]?.credentials).toBe('same-origin');
  });

  it('sends the XSRF-TOKEN cookie as X-XSRF-TOKEN on unsafe methods only', async () => {
    document.cookie = 'XSRF-TOKEN=c00kie%2Bvalue; path=/';
    const requests = answer('/organisation/1', 200, { id: 1 });
    const { api } = client();

    await api.get('/api/v1/organisation/1');
    await api.put('/api/v1/organisation/1', { name: 'Demo Hospital' });
    await api.del('/api/v1/organisation/1');

    expect(requests.map((r) => r.headers.get('X-XSRF-TOKEN'))).toEqual([
      null,
      'c00kie+value',
      'c00kie+value',
    ]);
  });

  it('sends bodies as JSON', async () => {
    const requests = answer('/organisation', 201, { id: 5 });
    const { api } = client();

    await api.post('/api/v1/organisation', { organisationName: 'Demo' });

    expect(requests[0]?.headers.get('Content-Type')).toBe('application/json');
    await expect(requests[0]?.json()).resolves.toEqual({ organisationName: 'Demo' });
  });

  it('sends FormData as multipart without forcing a JSON content type', async () => {
    const requests = answer('/file/upload/user', 201, { id: 1 });
    const { api } = client();
    const form = new FormData();
    form.append('file', new Blob(['a,b\n1,2'], { type: 'text/csv' }), 'users.csv');

    await api.post('/api/v1/file/upload/user', form);

    expect(requests[0]?.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('prefixes the configured base URL', async () => {
    server.use(http.get('http://api.test/base/api/v1/product', () => HttpResponse.json([])));
    const api = createApiClient({
      apiBaseUrl: 'http://api.test/base/',
      getToken: async () => ({ accessToken: 't', tokenType: 'Bearer' }),
    });

    await expect(api.get('/api/v1/product')).resolves.toMatchObject({ isSuccess: true, data: [] });
  });
});

describe('saveResource', () => {
  it("uses PUT when the method is 'put' and POST otherwise", async () => {
    const methods: string[] = [];
    server.use(
      http.all(`${API}/organisation*`, ({ request }) => {
        methods.push(request.method);
        return HttpResponse.json({ id: 1 }, { status: request.method === 'POST' ? 201 : 200 });
      }),
    );
    const { api } = client();

    const updated = await api.saveResource('put', '/api/v1/organisation/1', { name: 'a' });
    const created = await api.saveResource('post', '/api/v1/organisation', { name: 'b' });

    expect(methods).toEqual(['PUT', 'POST']);
    expect(updated.isSuccess).toBe(true);
    expect(created.isSuccess).toBe(true);
  });
});

describe('withQuery', () => {
  it('skips empty values and repeats arrays', () => {
    expect(withQuery('/api/v1/report/1/image', { id: [3, 4], filter: undefined, page: 1 })).toBe(
      '/api/v1/report/1/image?id=3&id=4&page=1',
    );
    expect(withQuery('/api/v1/lookup?field=product', { product_id: 2 })).toBe(
      '/api/v1/lookup?field=product&product_id=2',
    );
  });
});
