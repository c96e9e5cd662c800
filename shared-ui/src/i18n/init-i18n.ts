import i18next, { type i18n, type InitOptions, type Resource } from 'i18next';
import { FetchBackend, type FetchBackendOptions } from './fetch-backend';
import { initReactI18next } from './react-i18next';
import { namespaceLoadPath } from './remote-namespaces';

export const DEFAULT_LOAD_PATH = '/locales/{{lng}}/{{ns}}.json';
export const FALLBACK_LANGUAGE = 'en';

/** Translation loader limits (docs/requirements.md#limits-and-defaults): i18next doubles `retryTimeout` after every failed read. */
export const I18N_LOADER_LIMITS = { maxParallelReads: 10, maxRetries: 5, retryTimeout: 350 } as const;

export interface InitI18nOptions {
  /** Start language; defaults to the fallback language 'en'. */
  lng?: string;
  /** Where translations are fetched from. */
  loadPath?: string;
  /**
   * Bundled translations. When given, nothing is fetched (tests), unless `partialBundled`;
   * when absent, translations come over HTTP from `loadPath`.
   */
  resources?: Resource;
  /** Bundled `resources` plus remote namespaces over HTTP (a remote alone on its dev server). */
  partialBundled?: boolean;
}

export function buildI18nOptions({
  lng,
  loadPath,
  resources,
  partialBundled = false,
}: InitI18nOptions = {}): InitOptions<FetchBackendOptions> {
  if (loadPath !== undefined && !loadPath.includes('{{lng}}')) {
    throw new Error(`initI18n: loadPath must contain {{lng}}, got "${loadPath}".`);
  }
  return {
    lng: lng ?? FALLBACK_LANGUAGE,
    fallbackLng: FALLBACK_LANGUAGE,
    ns: ['translation'],
    defaultNS: 'translation',
    // A remote's namespace holds its own strings; shared-ui's keys come from the host's.
    fallbackNS: 'translation',
    // Our locale files are per language ("de"), so "de-AT" must not cost a 404 first.
    load: 'languageOnly',
    // React escapes output itself.
    interpolation: { escapeValue: false },
    ...I18N_LOADER_LIMITS,
    ...(resources && { resources, partialBundledLanguages: partialBundled }),
    ...((!resources || partialBundled) && {
      backend: { loadPath: namespaceLoadPath(loadPath ?? DEFAULT_LOAD_PATH) },
    }),
  };
}

let initialising: Promise<i18n> | undefined;

/**
 * Screen readers choose their voice and pronunciation from `<html lang>` (WCAG 3.1.1), so it must
 * follow the interface language, not stay on the page's static "en".
 */
function syncDocumentLanguage(lng: string | undefined) {
  if (lng && typeof document !== 'undefined') document.documentElement.lang = lng;
}

/**
 * Initialises the shared i18next instance once (shared-ui and i18next are federation singletons,
 * so host and remotes see the same one). Later calls return the same promise.
 */
export function initI18n(options: InitI18nOptions = {}): Promise<i18n> {
  if (initialising) return initialising;
  const config = buildI18nOptions(options);
  if (!options.resources || options.partialBundled) i18next.use(FetchBackend);
  i18next.use(initReactI18next);
  i18next.on('languageChanged', syncDocumentLanguage);
  initialising = i18next.init(config).then(() => i18next);
  return initialising;
}
