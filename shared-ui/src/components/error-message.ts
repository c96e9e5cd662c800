import { useCallback } from 'react';
import { useTranslation } from '../i18n/react-i18next';

/**
 * Translates a server message through the key 'errorMessage.' + message, falling back to the
 * message itself (spec §8). Server texts may contain ':' and '.', so the namespace separator is off;
 * i18next still finds nested keys that contain dots.
 */
export function useTranslateErrorMessage(): (raw: string) => string {
  const { t } = useTranslation();
  return useCallback((raw: string) => t(`errorMessage.${raw}`, { defaultValue: raw, nsSeparator: false }), [t]);
}
