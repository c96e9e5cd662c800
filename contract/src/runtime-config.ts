/**
 * What the host's server sends as `/config.json`. The browser learns every location from this at
 * run time, so a remote or the API moves without rebuilding the host.
 */
export interface RuntimeConfig {
  productName: string;
  version: string;
  /** Base URL of the API; '' means same origin (the host server proxies /api). */
  apiBaseUrl: string;
  oidc: { authority: string; clientId: string };
  /** Where each remote's `remoteEntry.js` lives. */
  remotes: { simulation: string; reports: string; admin: string };
  /** Learning-platform (Brightspace) host for self-assessment and logout; null when not linked. */
  brightspaceHost: string | null;
}
