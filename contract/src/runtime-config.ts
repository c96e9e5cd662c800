import type { RemoteName } from './remotes';

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
  /** Where each remote's `remoteEntry.js` lives (the remotes: contract/src/remotes.json). */
  remotes: Record<RemoteName, string>;
  /** Learning-platform (Brightspace) host for self-assessment and logout; null when not linked. */
  brightspaceHost: string | null;
  /** How the launch screen reaches the simulation app. */
  launch: LaunchSettings;
}

export interface LaunchSettings {
  /**
   * Base URL of the browser simulator; the launch link becomes `{simulatorUrl}/launch?token=…`.
   * null means the product's protocol opens the installed desktop/VR app (`{protocol}://launch?…`).
   */
  simulatorUrl: string | null;
  /** The app must take focus (window blur) or join the session within this time, else error. */
  launchTimeoutMs: number;
  /** Session status poll interval. */
  statusPollMs: number;
}
