import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { FetchBackend, type FetchBackendOptions } from '../fetch-backend';

const requests: string[] = [];
const server = setupServer(
  http.get('http://strings.test/:lng/:ns.json', ({ params, request }) => {
    requests.push(new URL(request.url).pathname);
    switch (params.ns) {
      case 'gone':
        return new HttpResponse(null, { status: 404 });
      case 'busy':
        return new HttpResponse(null, { status: 503 });
      case 'throttled':
        return new HttpResponse(null, { status: 429 });
      case 'broken':
        return new HttpResponse('{ not json', { headers: { 'Content-Type': 'application/json' } });
      case 'offline':
        return HttpResponse.error();
      default:
        return HttpResponse.json({ greeting: `hello in ${String(params.lng)}` });
    }
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  requests.length = 0;
});
afterAll(() => server.close());

function read(backend: FetchBackend, lng: string, ns: string) {
  return new Promise<{ err: unknown; data: unknown }>((resolve) => {
    backend.read(lng, ns, (err, data) => resolve({ err, data }));
  });
}

function backendFor(loadPath: FetchBackendOptions['loadPath']) {
  const backend = new FetchBackend();
  backend.init(undefined, { loadPath });
  return backend;
}

describe('FetchBackend', () => {
  it('fills {{lng}} and {{ns}} into the load path and answers the parsed strings', async () => {
    const backend = backendFor('http://strings.test/{{lng}}/{{ns}}.json');
    await expect(read(backend, 'de', 'reports')).resolves.toEqual({
      err: null,
      data: { greeting: 'hello in de' },
    });
    expect(requests).toEqual(['/de/reports.json']);
  });

  it('asks the load path function for the namespace being read', async () => {
    const loadPath = jest.fn(() => 'http://strings.test/{{lng}}/{{ns}}.json');
    await read(backendFor(loadPath), 'en', 'admin');
    expect(loadPath).toHaveBeenCalledWith(['en'], ['admin']);
    expect(requests).toEqual(['/en/admin.json']);
  });

  it('encodes what it fills in, so a language code cannot leave its path segment', async () => {
    await read(backendFor('http://strings.test/{{lng}}/{{ns}}.json'), '../x', 'reports');
    expect(requests).toEqual(['/..%2Fx/reports.json']);
  });

  it.each([
    ['a server error', 'busy', true],
    ['429', 'throttled', true],
    ['a network failure', 'offline', true],
    ['404', 'gone', false],
    ['a body that is not JSON', 'broken', false],
  ])('fails on %s (namespace %s); retry: %s', async (_case, ns, retry) => {
    const { err, data } = await read(
      backendFor('http://strings.test/{{lng}}/{{ns}}.json'),
      'en',
      ns,
    );
    expect(String(err)).toContain(`http://strings.test/en/${ns}.json`);
    expect(data).toBe(retry);
  });
});
