import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@portal/contract/demo-accounts';

import { CLIENT_ID, SSO_SESSION_MAX_SECONDS } from './provider';
import { DEFAULT_ACCESS_TOKEN_TTL } from './config';
import { DEVICE_CODE_TTL_SECONDS, DEVICE_POLLING_INTERVAL_SECONDS } from './device-flow';
import { DEFAULT_LOCALE, LOCALES } from './locale';
import { realmDefaultRoles } from './keycloak-claims';

/**
 * The realm for a real Keycloak, built from the same accounts and settings as the local provider
 * so the two cannot drift apart (a test compares it with keycloak/realm-main.json).
 * `${PORTAL_ORIGIN}` is left for Keycloak to fill from the environment at `--import-realm` time.
 */
export const REALM = 'main';
export const PORTAL_ORIGIN_PLACEHOLDER = '${PORTAL_ORIGIN}';

const ROLES = ['learner', 'educator', 'org admin', 'sys admin'] as const;

// What a role may do is decided by the API from the user's role in its database, not here.
const describe = (name: string): string => `Simulation Portal role "${name}"; permissions are assigned by the portal API.`;

export function buildRealmExport() {
  const origin = PORTAL_ORIGIN_PLACEHOLDER;
  const [defaultRealmRole] = realmDefaultRoles(REALM);
  return {
    realm: REALM,
    displayName: 'Simulation Portal',
    enabled: true,
    sslRequired: 'external',
    registrationAllowed: false,
    loginWithEmailAllowed: true,
    duplicateEmailsAllowed: false,
    resetPasswordAllowed: true,
    bruteForceProtected: true,
    accessTokenLifespan: DEFAULT_ACCESS_TOKEN_TTL,
    ssoSessionIdleTimeout: 1800,
    ssoSessionMaxLifespan: SSO_SESSION_MAX_SECONDS,
    // Same as the local provider: every refresh rotates the token and a reused one is refused
    // (shared-auth refreshes under a cross-tab lock, so tabs never present a stale one).
    revokeRefreshToken: true,
    refreshTokenMaxReuse: 0,
    // Device login (VR headsets, desktop apps): same lifetimes as the local provider.
    oauth2DeviceCodeLifespan: DEVICE_CODE_TTL_SECONDS,
    oauth2DevicePollingInterval: DEVICE_POLLING_INTERVAL_SECONDS,
    // Keycloak ignores `kc_locale` (the portal's links carry the user's language) unless the
    // realm is internationalised with that locale.
    internationalizationEnabled: true,
    supportedLocales: [...LOCALES],
    defaultLocale: DEFAULT_LOCALE,
    roles: {
      realm: ROLES.map((name) => ({ name, description: describe(name) })),
      client: {
        [CLIENT_ID]: ROLES.map((name) => ({ name, description: describe(name) })),
      },
    },
    clients: [
      {
        clientId: CLIENT_ID,
        name: 'Simulation Portal',
        enabled: true,
        protocol: 'openid-connect',
        publicClient: true,
        standardFlowEnabled: true,
        implicitFlowEnabled: false,
        directAccessGrantsEnabled: false,
        serviceAccountsEnabled: false,
        frontchannelLogout: true,
        fullScopeAllowed: true,
        rootUrl: origin,
        baseUrl: '/',
        redirectUris: [`${origin}/auth/callback`, `${origin}/silent-check-sso.html`],
        webOrigins: [origin],
        attributes: {
          // Applies to the authorization code flow only; the device grant has no redirect.
          'pkce.code.challenge.method': 'S256',
          'oauth2.device.authorization.grant.enabled': 'true',
          'post.logout.redirect.uris': [`${origin}/logout`, `${origin}/`].join('##'),
        },
      },
    ],
    users: DEMO_ACCOUNTS.map((account) => ({
      id: account.sub,
      username: account.email,
      email: account.email,
      emailVerified: true,
      firstName: account.firstName,
      lastName: account.lastName,
      enabled: true,
      attributes: {
        locale: [account.language],
        ...(account.organisation ? { organisation: [account.organisation] } : {}),
      },
      // Demo credentials only: temporary, so Keycloak makes anyone using them choose a new password.
      credentials: [{ type: 'password', value: DEMO_PASSWORD, temporary: true }],
      realmRoles: [defaultRealmRole, account.role],
      clientRoles: { [CLIENT_ID]: [account.role] },
    })),
  };
}

export const realmExportJson = (): string => `${JSON.stringify(buildRealmExport(), null, 2)}\n`;
