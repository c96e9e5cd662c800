import i18next from 'i18next';
import en from '../../../locales/en.json';
import { initI18n } from '../init-i18n';
import { registerTranslations } from '../register-translations';

beforeAll(() => initI18n({ lng: 'en', resources: { en: { translation: en }, de: { translation: {} } } }));

describe('registerTranslations', () => {
  it("deep-merges a remote's keys into the shared translations without losing existing ones", () => {
    registerTranslations({ en: { simulation: { title: 'Simulations', launch: { vr: 'Launch in VR' } } } });
    registerTranslations({ en: { simulation: { launch: { desktop: 'Launch on desktop' } } } });

    expect(i18next.t('simulation.title')).toBe('Simulations');
    expect(i18next.t('simulation.launch.vr')).toBe('Launch in VR');
    expect(i18next.t('simulation.launch.desktop')).toBe('Launch on desktop');
    expect(i18next.t('pageNotFound')).toBe('Page not found');
  });

  it('overwrites a key registered again with a new text', () => {
    registerTranslations({ en: { reports: { title: 'Reports' } } });
    registerTranslations({ en: { reports: { title: 'Your reports' } } });
    expect(i18next.t('reports.title')).toBe('Your reports');
  });

  it('adds every language given', async () => {
    registerTranslations({ de: { admin: { title: 'Verwaltung' } } });
    await i18next.changeLanguage('de');
    expect(i18next.t('admin.title')).toBe('Verwaltung');
    await i18next.changeLanguage('en');
  });

  it('rejects bundles that are not objects', () => {
    expect(() => registerTranslations({ en: 'Simulations' as unknown as object })).toThrow(
      'translations for "en" must be an object',
    );
    expect(() => registerTranslations(null as unknown as Record<string, object>)).toThrow('expected an object');
  });
});
