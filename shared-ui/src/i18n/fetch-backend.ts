import type { BackendModule, ReadCallback } from 'i18next';

export interface FetchBackendOptions {
  /** Where a language's namespace is read from; `{{lng}}` and `{{ns}}` are filled in. */
  loadPath: string | ((languages: string[], namespaces: string[]) => string);
}

/**
 * i18next's translation loader: one `fetch` per language and namespace. It replaces
 * i18next-http-backend, which with its XMLHttpRequest and cross-fetch fallbacks for browsers the
 * portal does not support cost ≈ 4 kB gzip on every first visit (issue #11). Failures follow that
 * backend's rules: a network error, a 5xx, 408 or 429 asks i18next to retry (`maxRetries`, with
 * `retryTimeout` doubling); any other status, or a body that is not JSON, does not.
 */
export class FetchBackend implements BackendModule<FetchBackendOptions> {
  static readonly type = 'backend';
  readonly type = 'backend';
  readonly callbackApi = true;
  private loadPath: FetchBackendOptions['loadPath'] = '/locales/{{lng}}/{{ns}}.json';

  init(_services: unknown, options: Partial<FetchBackendOptions> = {}): void {
    if (options.loadPath) this.loadPath = options.loadPath;
  }

  read(language: string, namespace: string, callback: ReadCallback): void {
    const template =
      typeof this.loadPath === 'function' ? this.loadPath([language], [namespace]) : this.loadPath;
    const url = template
      .replaceAll('{{lng}}', encodeURIComponent(language))
      .replaceAll('{{ns}}', encodeURIComponent(namespace));
    fetch(url).then(
      (response) => {
        if (!response.ok) {
          const retry =
            response.status >= 500 || response.status === 408 || response.status === 429;
          callback(`failed loading ${url}; status code: ${response.status}`, retry);
          return;
        }
        response.json().then(
          (strings: unknown) => callback(null, strings as Record<string, unknown>),
          () => callback(`failed parsing ${url} to json`, false),
        );
      },
      (error: unknown) =>
        callback(
          `failed loading ${url}: ${error instanceof Error ? error.message : String(error)}`,
          true,
        ),
    );
  }
}
