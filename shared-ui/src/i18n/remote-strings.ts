import { assertRemoteNamespace, registerNamespace } from './remote-namespaces';

export interface RemoteStrings {
  /** The remote's i18next namespace: `useTranslation(namespace)` reads its strings. */
  readonly namespace: string;
  /**
   * Starts loading the remote's strings in the page's language from `publicPath`, where its
   * remoteEntry.js was loaded from (webpack's `__webpack_public_path__` in the remote's own
   * bundle: this package is the page's shared copy, so it cannot know which remote asks). Without
   * one, as in tests, which bundle the strings, there is nothing to load.
   */
  register(publicPath: string | undefined): void;
}

/**
 * A remote's strings, under the namespace of its entry in the remote manifest
 * (`@portal/contract/remotes`). They deploy with the remote, as `locales/{lng}/{namespace}.json`
 * beside its remoteEntry.js; shared-ui's keys resolve from the host's namespace (fallbackNS).
 */
export function createRemoteStrings(namespace: string): RemoteStrings {
  assertRemoteNamespace(namespace, 'createRemoteStrings');
  return {
    namespace,
    register(publicPath) {
      if (typeof publicPath === 'string') void registerNamespace(namespace, publicPath);
    },
  };
}
