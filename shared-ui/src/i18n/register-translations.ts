import i18next from 'i18next';

const NAMESPACE = 'translation';

/** Bundles waiting for their language to be loaded from the host, per language. */
const pending = new Map<string, object[]>();
let listening = false;

/**
 * Deep-merges a remote's translations into the shared i18next instance, e.g.
 * `registerTranslations({ en, de })`.
 *
 * A bundle for a language the host has not loaded yet is held back until that language arrives:
 * i18next treats a language that already has a bundle as loaded, so adding a remote's German keys
 * early would stop the host's own German file from ever being fetched.
 */
export function registerTranslations(resources: Record<string, object>): void {
  if (resources === null || typeof resources !== 'object' || Array.isArray(resources)) {
    throw new Error('registerTranslations: expected an object of the form { en: {...}, de: {...} }.');
  }
  for (const [lng, bundle] of Object.entries(resources)) {
    if (bundle === null || typeof bundle !== 'object' || Array.isArray(bundle)) {
      throw new Error(`registerTranslations: translations for "${lng}" must be an object.`);
    }
    pending.set(lng, [...(pending.get(lng) ?? []), bundle]);
  }
  listen();
  flush();
}

function listen(): void {
  if (listening) return;
  listening = true;
  i18next.on('initialized', () => flush());
  i18next.on('loaded', () => flush());
  // A language whose file failed for good is not retried; the remote's keys are better than none.
  i18next.on('failedLoading', (lng: string) => flush(lng));
}

function backendWillLoad(): boolean {
  const { options, services } = i18next;
  const hasBackend = Boolean(services.backendConnector?.backend);
  return hasBackend && (!options.resources || Boolean(options.partialBundledLanguages));
}

function flush(failedLng?: string): void {
  if (!i18next.isInitialized || !i18next.store) return;
  const nothingToLoad = !backendWillLoad();
  for (const [lng, bundles] of [...pending]) {
    if (nothingToLoad || lng === failedLng || i18next.hasResourceBundle(lng, NAMESPACE)) {
      pending.delete(lng);
      for (const bundle of bundles) i18next.addResourceBundle(lng, NAMESPACE, bundle, true, true);
    }
  }
}
