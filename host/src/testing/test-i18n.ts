import sharedEn from '@portal/shared-ui/locales/en.json';
import sharedDe from '@portal/shared-ui/locales/de.json';
import { mergeTranslations } from '../../build/merge-locales-plugin.js';
import hostEn from '../../locales/en.json';
import hostDe from '../../locales/de.json';

/** The same merged strings the build emits, bundled instead of fetched. */
export function testResources() {
  const merge = (a: object, b: object) =>
    mergeTranslations(mergeTranslations({}, structuredClone(a), 'test'), structuredClone(b), 'test');
  return { en: { translation: merge(hostEn, sharedEn) }, de: { translation: merge(hostDe, sharedDe) } };
}
