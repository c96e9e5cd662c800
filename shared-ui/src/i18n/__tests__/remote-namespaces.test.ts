import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import i18next from 'i18next';
import en from '../../../locales/en.json';
import { initI18n } from '../init-i18n';
import { namespaceLoadPath, registerNamespace } from '../remote-namespaces';

// Each remote's strings load from its own origin as locales/{lng}/{namespace}.json.
const requests: string[] = [];
const server = setupServer(
  http.get('http://localhost/locales/:lng/translation.json', ({ params }) => {
    requests.push(`host ${String(params.lng)}`);
    return HttpResponse.json(params.lng === 'de' ? { pageNotFound: 'Seite nicht gefunden' } : en);
  }),
  http.get('http://reports.test/app/locales/:lng/reports.json', ({ params }) => {
    requests.push(`reports ${String(params.lng)}`);
    return HttpResponse.json(
      params.lng === 'de' ? { heading: 'Ihre Berichte' } : { heading: 'Your reports' },
    );
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('remote namespaces', () => {
  it('loads a remote namespace from its own origin, in every language the page switches to', async () => {
    await initI18n({ loadPath: 'http://localhost/locales/{{lng}}/{{ns}}.json' });
    await registerNamespace('reports', 'http://reports.test/app/');

    const t = i18next.getFixedT(null, 'reports');
    expect(t('heading')).toBe('Your reports');
    // shared-ui's keys resolve from the host's namespace.
    expect(t('pageNotFound')).toBe('Page not found');

    await i18next.changeLanguage('de');
    expect(t('heading')).toBe('Ihre Berichte');
    expect(t('pageNotFound')).toBe('Seite nicht gefunden');
    expect(requests).toEqual(['host en', 'reports en', 'host de', 'reports de']);
  });

  it('sends the host namespace to the host and a registered one to its base', () => {
    const loadPath = namespaceLoadPath('/locales/{{lng}}/{{ns}}.json');
    expect(loadPath(['en'], ['translation'])).toBe('/locales/{{lng}}/{{ns}}.json');
    expect(loadPath(['en'], ['reports'])).toBe('http://reports.test/app/locales/{{lng}}/{{ns}}.json');
    expect(loadPath(['en'], ['unknown'])).toBe('/locales/{{lng}}/{{ns}}.json');
  });

  it('refuses names that are not a remote namespace and bases that are not http(s)', () => {
    expect(() => registerNamespace('translation', 'http://x.test/')).toThrow('not a remote namespace');
    expect(() => registerNamespace('../etc', 'http://x.test/')).toThrow('not a remote namespace');
    expect(() => registerNamespace('evil', 'javascript:alert(1)//')).toThrow('must load over http(s)');
  });
});
