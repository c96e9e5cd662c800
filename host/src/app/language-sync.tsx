import { useEffect } from 'react';
import { useTranslation } from '@portal/shared-ui';
import { useAuth } from '@portal/shared-auth';

/**
 * docs/requirements.md#language: once the user is known, switch to their stored language when it differs. Keyed on
 * the stored language only, so a language just chosen on the preference page is not undone.
 */
export function LanguageSync() {
  const { user } = useAuth();
  const { i18n } = useTranslation();
  const stored = user?.language;

  useEffect(() => {
    if (stored && stored !== i18n.resolvedLanguage && stored !== i18n.language) {
      void i18n.changeLanguage(stored);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the stored language only: see above
  }, [stored]);

  return null;
}
