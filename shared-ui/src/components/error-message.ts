import { useCallback } from 'react';
import { matchFieldMessage, NESTED_MESSAGE_PARAMS } from '@portal/contract/field-messages';
import { useTranslation } from '../i18n/react-i18next';

/**
 * Translates a server message through the key 'errorMessage.' + message, falling back to the
 * message itself (docs/requirements.md#errors-and-messages). Server texts may contain ':' and '.', so the namespace separator is off;
 * i18next still finds nested keys that contain dots. A message with values (a version, a JSON path)
 * has no key of its own: it is matched to the contract's template, whose key is translated with the
 * values put back in — values that are messages themselves (the problem after a JSON path)
 * translated first.
 */
export function useTranslateErrorMessage(): (raw: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    function translate(raw: string): string {
      const key = `errorMessage.${raw}`;
      if (i18n.exists(key, { nsSeparator: false })) return t(key, { nsSeparator: false });
      const match = matchFieldMessage(raw);
      if (!match) return raw;
      const values: Record<string, string> = {};
      for (const [name, value] of Object.entries(match.params)) {
        values[name] = NESTED_MESSAGE_PARAMS.includes(name) ? translate(value) : value;
      }
      // `replace` keeps values apart from t's options (a value may be called `format` or `path`).
      return t(`errorMessage.${match.template}`, { replace: values, defaultValue: raw, nsSeparator: false });
    },
    [t, i18n],
  );
}
