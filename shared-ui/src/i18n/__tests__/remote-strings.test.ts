import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import i18next from 'i18next';
import en from '../../../locales/en.json';
import { initI18n } from '../init-i18n';
import { createRemoteStrings } from '../remote-strings';

// A remote's strings load from where its remoteEntry.js came from, under its manifest namespace.
const requests: string[] = [];
const server = setupServer(
  http.get('http://localhost/locales/:lng/translation.json', ({ params }) => {
    requests.push(`host ${String(params.lng)}`);
    return HttpResponse.json(en);
  }),
  http.get('http://admin.test/v2/locales/:lng/admin.json', ({ params }) => {
    requests.push(`admin ${String(params.lng)}`);
    return HttpResponse.json({ tabs: 'Administration sections' });
  }),
);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await initI18n({ loadPath: 'http://localhost/locales/{{lng}}/{{ns}}.json' });
});
afterAll(() => server.close());

describe('createRemoteStrings', () => {
  it('names the namespace and loads nothing without a public path, as in tests', () => {
    const strings = createRemoteStrings('simulation');
    strings.register(undefined);
    expect(strings.namespace).toBe('simulation');
    expect(requests).toEqual(['host en']);
  });

  it("loads the remote's strings from its public path; shared-ui's keys still resolve", async () => {
    createRemoteStrings('admin').register('http://admin.test/v2/');
    const t = i18next.getFixedT(null, 'admin');
    // One level of namespacing: the key is the file's own, not prefixed with the remote's name.
    await waitFor(() => expect(t('tabs')).toBe('Administration sections'));
    expect(t('pageNotFound')).toBe('Page not found');
    expect(requests).toEqual(['host en', 'admin en']);
  });

  it("refuses a name that cannot be a remote's namespace", () => {
    expect(() => createRemoteStrings('translation')).toThrow('not a remote namespace');
    expect(() => createRemoteStrings('Reports/../x')).toThrow('not a remote namespace');
  });
});
