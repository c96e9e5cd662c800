import i18next from 'i18next';

/**
 * A remote's strings are its own i18next namespace ('reports', 'admin', …), served beside its
 * remoteEntry.js as `locales/{lng}/{namespace}.json`, so they deploy with the remote: a remote
 * redeployed with a new string shows it after a reload, with no host build. Keys the remote
 * shares with the portal (shared-ui's) resolve through `fallbackNS` from the host's namespace.
 */
const NAMESPACE_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
const namespaceBases = new Map<string, string>();

/** Throws unless `namespace` can name a remote's strings (a file name, never the host's own). */
export function assertRemoteNamespace(namespace: string, caller: string): void {
  if (!NAMESPACE_PATTERN.test(namespace) || namespace === 'translation') {
    throw new Error(`${caller}: "${namespace}" is not a remote namespace name.`);
  }
}

/** Where a namespace was registered from, or undefined for the host's own ('translation'). */
export function namespaceBaseUrl(namespace: string): string | undefined {
  return namespaceBases.get(namespace);
}

/**
 * The backend's `loadPath` for `hostLoadPath`: a remote's namespace loads from its own
 * origin, everything else from the host. The backend (fetch-backend.ts) fills in {{lng}} and {{ns}}.
 */
export function namespaceLoadPath(hostLoadPath: string) {
  return (_languages: string[], namespaces: string[]): string => {
    const base = namespaces.length === 1 ? namespaceBases.get(namespaces[0]!) : undefined;
    return base ? `${base}locales/{{lng}}/{{ns}}.json` : hostLoadPath;
  };
}

/**
 * Registers a remote's namespace, served under `baseUrl` (the remote's public path, ending in
 * '/'), and starts loading it in the current language; later language changes load it too.
 * Resolves when it is loaded (or could not be: the keys then show as the fallback does).
 */
export function registerNamespace(namespace: string, baseUrl: string): Promise<void> {
  assertRemoteNamespace(namespace, 'registerNamespace');
  const url = new URL(baseUrl, typeof location === 'undefined' ? undefined : location.href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`registerNamespace: ${namespace} must load over http(s), not "${url.protocol}".`);
  }
  const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
  namespaceBases.set(namespace, base);
  if (!i18next.isInitialized) {
    return new Promise((resolve) => {
      i18next.on('initialized', () => void i18next.loadNamespaces(namespace).then(() => resolve()));
    });
  }
  return i18next.loadNamespaces(namespace);
}
