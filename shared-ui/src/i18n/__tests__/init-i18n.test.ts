import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import en from '../../../locales/en.json';
import { buildI18nOptions, DEFAULT_LOAD_PATH, initI18n } from '../init-i18n';

let failuresLeft = 0;
const requests: string[] = [];
const server = setupServer(
  http.get('http://localhost/locales/:lng/:ns.json', ({ params }) => {
    requests.push(`${String(params.lng)}/${String(params.ns)}`);
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      return new HttpResponse(null, { status: 503 });
    }
    return HttpResponse.json(params.lng === 'en' ? en : {});
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('buildI18nOptions', () => {
  it('uses the required loader limits, fallback "en", the host namespace and the default load path', () => {
    const options = buildI18nOptions();
    expect(options).toMatchObject({
      lng: 'en',
      fallbackLng: 'en',
      ns: ['translation'],
      defaultNS: 'translation',
      fallbackNS: 'translation',
      maxParallelReads: 10,
      maxRetries: 5,
      retryTimeout: 350,
    });
    const loadPath = options.backend?.loadPath as (lngs: string[], nss: string[]) => string;
    expect(loadPath(['en'], ['translation'])).toBe('/locales/{{lng}}/{{ns}}.json');
    expect(DEFAULT_LOAD_PATH).toBe('/locales/{{lng}}/{{ns}}.json');
  });

  it('bundles resources instead of fetching when they are given', () => {
    const options = buildI18nOptions({ lng: 'de', resources: { de: { translation: {} } } });
    expect(options.lng).toBe('de');
    expect(options.backend).toBeUndefined();
  });

  it('bundles resources and still fetches remote namespaces when partly bundled', () => {
    const options = buildI18nOptions({ resources: { en: { translation: {} } }, partialBundled: true });
    expect(options.partialBundledLanguages).toBe(true);
    expect(options.backend).toBeDefined();
  });

  it('rejects a load path without {{lng}}', () => {
    expect(() => buildI18nOptions({ loadPath: '/locales/en.json' })).toThrow('loadPath must contain {{lng}}');
  });
});

describe('initI18n', () => {
  it('loads translations over HTTP, retrying failed reads with a doubling delay', async () => {
    failuresLeft = 2;
    const started = Date.now();
    const i18n = await initI18n({ loadPath: 'http://localhost/locales/{{lng}}/{{ns}}.json' });

    // 350 ms then 700 ms before the third, successful read.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(requests).toEqual(['en/translation', 'en/translation', 'en/translation']);
    expect(i18n.t('pageNotFound')).toBe('Page not found');
    expect(i18n.options).toMatchObject({ maxParallelReads: 10, maxRetries: 5, retryTimeout: 350, fallbackLng: ['en'] });
    const connector = i18n.services.backendConnector as { maxParallelReads: number; maxRetries: number; retryTimeout: number };
    expect([connector.maxParallelReads, connector.maxRetries, connector.retryTimeout]).toEqual([10, 5, 350]);
  });

  it('initialises only once', async () => {
    const first = initI18n();
    expect(initI18n({ lng: 'de' })).toBe(first);
    expect((await first).language).toBe('en');
  });

  it('keeps <html lang> on the interface language, for screen readers', async () => {
    document.documentElement.lang = 'en';
    const i18n = await initI18n();
    await i18n.changeLanguage('de');
    expect(document.documentElement.lang).toBe('de');
    await i18n.changeLanguage('en');
    expect(document.documentElement.lang).toBe('en');
  });
});
