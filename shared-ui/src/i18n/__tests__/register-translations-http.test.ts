import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import de from '../../../locales/de.json';
import en from '../../../locales/en.json';
import i18next from 'i18next';
import { initI18n } from '../init-i18n';
import { registerTranslations } from '../register-translations';

const requests: string[] = [];
const server = setupServer(
  http.get('http://localhost/locales/:lng/translation.json', ({ params }) => {
    requests.push(String(params.lng));
    return HttpResponse.json(params.lng === 'de' ? de : en);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('registerTranslations with translations served over HTTP', () => {
  it("keeps a remote's keys for a language not loaded yet until the host's file for it arrives", async () => {
    // A remote may register before the host has loaded anything, and for languages not in use.
    registerTranslations({
      en: { reports: { title: 'Your reports' } },
      de: { reports: { title: 'Ihre Berichte' } },
    });
    const i18n = await initI18n({ loadPath: 'http://localhost/locales/{{lng}}/{{ns}}.json' });
    expect(i18n.t('reports.title')).toBe('Your reports');
    expect(i18n.t('pageNotFound')).toBe('Page not found');

    await i18n.changeLanguage('de');
    expect(requests).toEqual(['en', 'de']);
    expect(i18n.t('reports.title')).toBe('Ihre Berichte');
    expect(i18n.t('pageNotFound')).toBe('Seite nicht gefunden');
  });

  it('merges at once into a language that is already loaded', () => {
    registerTranslations({ de: { admin: { title: 'Verwaltung' } } });
    expect(i18next.t('admin.title')).toBe('Verwaltung');
    expect(requests).toEqual(['en', 'de']);
  });
});
