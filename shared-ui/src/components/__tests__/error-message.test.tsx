import { renderHook } from '@testing-library/react';
import i18next from 'i18next';
import { FIELD_MESSAGE_TEMPLATES, formatFieldMessage } from '@portal/contract/field-messages';
import de from '../../../locales/de.json';
import en from '../../../locales/en.json';
import { useTranslateErrorMessage } from '../error-message';
import { i18nReady } from '../../test/render';

const T = FIELD_MESSAGE_TEMPLATES;
const duplicate = formatFieldMessage(T.versionTaken, { version: '3.0.0', os: 'windows' });
const schemaError = formatFieldMessage(T.atJsonPath, { path: '/exposure/kv', detail: 'must be >= 40' });
const missing = formatFieldMessage(T.atJsonPath, { path: '/', detail: "must have required property 'kv'" });
const translationValue = formatFieldMessage(T.atJsonPath, { path: '/de/title', detail: 'must be a string or an object of strings' });
const tooLarge = formatFieldMessage(T.fileTooLarge, { size: '2GB' });

async function translatorIn(lng: 'en' | 'de') {
  await i18nReady;
  i18next.addResourceBundle('de', 'translation', de, true, true);
  await i18next.changeLanguage(lng);
  return renderHook(() => useTranslateErrorMessage()).result.current;
}

afterAll(() => i18next.changeLanguage('en'));

describe('useTranslateErrorMessage', () => {
  it('leaves the English server messages as the API wrote them', async () => {
    const translate = await translatorIn('en');
    for (const message of [duplicate, schemaError, missing, translationValue, tooLarge, 'The file must hold a JSON object.']) {
      expect(translate(message)).toBe(message);
    }
  });

  it('translates messages with values into German, values kept and nested problems translated', async () => {
    const translate = await translatorIn('de');
    expect(translate(duplicate)).toBe('Version 3.0.0 für windows gibt es für dieses Produkt bereits.');
    expect(translate(schemaError)).toBe('/exposure/kv: muss >= 40 sein');
    expect(translate(missing)).toBe("/: muss die Eigenschaft 'kv' haben");
    expect(translate(translationValue)).toBe('/de/title: muss eine Zeichenkette oder ein Objekt aus Zeichenketten sein');
    expect(translate(tooLarge)).toBe('Die Datei ist zu groß. Die maximale Dateigröße beträgt 2GB.');
    expect(translate('must be integer or null')).toBe('muss vom Typ integer or null sein');
    expect(translate('This product already has a configuration with this name.')).toBe(
      'Dieses Produkt hat bereits eine Konfiguration mit diesem Namen.',
    );
    // The exact key still wins over a template that would also fit.
    expect(translate('must be equal to constant')).toBe('muss dem festen Wert entsprechen');
  });

  it('keeps a message it knows nothing about, in any language', async () => {
    const translate = await translatorIn('de');
    expect(translate('Something only the server knows.')).toBe('Something only the server knows.');
    expect(translate('/x: a problem no template names')).toBe('/x: a problem no template names');
  });

  it('has an English and a German text for every template', () => {
    const enMessages = en.errorMessage as Record<string, string>;
    const deMessages = de.errorMessage as Record<string, string>;
    for (const template of Object.values(T)) {
      expect([template, typeof enMessages[template]]).toEqual([template, 'string']);
      expect([template, typeof deMessages[template]]).toEqual([template, 'string']);
    }
  });
});
