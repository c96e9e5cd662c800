import i18next from 'i18next';
import { setupRemoteTestServer } from '..';

// A remote's tests get its strings under its manifest namespace, beside shared-ui's, bundled.
setupRemoteTestServer(
  { namespace: 'area' },
  { en: { heading: 'Your area' }, de: { heading: 'Ihr Bereich' } },
);

describe('setupRemoteTestServer', () => {
  it("bundles the remote's strings under its namespace in every language given, with shared-ui's", async () => {
    const t = i18next.getFixedT(null, 'area');
    expect(i18next.language).toBe('en');
    expect(t('heading')).toBe('Your area');
    expect(t('pageNotFound')).toBe('Page not found');

    await i18next.changeLanguage('de');
    expect(t('heading')).toBe('Ihr Bereich');
    expect(t('pageNotFound')).toBe('Seite nicht gefunden');
    await i18next.changeLanguage('en');
  });

  it('fails a request that no test answers', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(fetch('/api/v1/anything')).rejects.toThrow();
    errors.mockRestore();
  });
});
