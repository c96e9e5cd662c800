import { DEMO_PASSWORD } from '@portal/contract/demo-accounts';

import { DEFAULT_ACTION_LIFESPAN_SECONDS } from '../accounts/action-tokens';
import { BRUTE_FORCE } from '../security/brute-force';
import { CLIENT_ID, PORTAL_RETURN_PATHS, SERVICE_CLIENT_ID, SSO_SESSION_MAX_SECONDS } from './provider';
import { DEFAULT_ACCESS_TOKEN_TTL, DEFAULT_BROKER_ALIAS, DEFAULT_BROKER_CLIENT_ID, DEFAULT_PRODUCT_NAME } from '../config';
import { launchIdentityProvider } from '../broker/identity-providers';
import { DEVICE_CODE_TTL_SECONDS, DEVICE_POLLING_INTERVAL_SECONDS } from '../routes/device-flow';
import { DEFAULT_LOCALE, LOCALES } from '../i18n/locale';
import { REALM_MANAGEMENT_CLIENT, realmDefaultRoles, SERVICE_CLIENT_ROLES } from './keycloak-claims';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/password-policy';
import { SEEDED_ACCOUNTS } from '../accounts/users';

/**
 * The realm for a real Keycloak, built from the same accounts and settings as the local provider
 * so the two cannot drift apart (a test compares it with keycloak/realm-main.json).
 * `${PORTAL_ORIGIN}` is left for Keycloak to fill from the environment at `--import-realm` time.
 */
export const REALM = 'main';
export const PORTAL_ORIGIN_PLACEHOLDER = '${PORTAL_ORIGIN}';
/**
 * The service client's secret is never in the file: Keycloak fills it from this variable at
 * import (the portal API's IDENTITY_ADMIN_CLIENT_SECRET must be the same value).
 */
export const SERVICE_CLIENT_SECRET_PLACEHOLDER = '${PORTAL_API_CLIENT_SECRET}';

/** The launch broker's client secret, filled by Keycloak at import (the API's LTI_BROKER_CLIENT_SECRET). */
export const BROKER_CLIENT_SECRET_PLACEHOLDER = '${LTI_BROKER_CLIENT_SECRET}';

const ROLES = ['learner', 'educator', 'org admin', 'sys admin'] as const;

// What a role may do is decided by the API from the user's role in its database, not here.
const describe = (name: string): string => `Simulation Portal role "${name}"; permissions are assigned by the portal API.`;

/** The portal's public client and the API's confidential service client. */
function realmClients(origin: string) {
  return [
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
      // The portal's root is where an invitation link sends the user after setting a password
      // (execute-actions-email redirect_uri); Keycloak accepts only registered redirect URIs.
      redirectUris: [...PORTAL_RETURN_PATHS.map((path) => `${origin}${path}`), `${origin}/`],
      webOrigins: [origin],
      attributes: {
        // Applies to the authorization code flow only; the device grant has no redirect.
        'pkce.code.challenge.method': 'S256',
        'oauth2.device.authorization.grant.enabled': 'true',
        'post.logout.redirect.uris': [`${origin}/logout`, `${origin}/`].join('##'),
      },
    },
    {
      clientId: SERVICE_CLIENT_ID,
      name: 'Simulation Portal API',
      description:
        'Confidential service client of the portal API: creates and updates users through the Admin REST API (client credentials). ' +
        'Its secret comes from PORTAL_API_CLIENT_SECRET at import; never put it in this file.',
      enabled: true,
      protocol: 'openid-connect',
      publicClient: false,
      clientAuthenticatorType: 'client-secret',
      secret: SERVICE_CLIENT_SECRET_PLACEHOLDER,
      standardFlowEnabled: false,
      implicitFlowEnabled: false,
      directAccessGrantsEnabled: false,
      serviceAccountsEnabled: true,
      frontchannelLogout: false,
      fullScopeAllowed: false,
      attributes: {
        'oauth2.device.authorization.grant.enabled': 'false',
      },
    },
  ];
}

export function buildRealmExport() {
  const origin = PORTAL_ORIGIN_PLACEHOLDER;
  const [defaultRealmRole] = realmDefaultRoles(REALM);
  const serviceAccount = {
    username: `service-account-${SERVICE_CLIENT_ID}`,
    enabled: true,
    serviceAccountClientId: SERVICE_CLIENT_ID,
    realmRoles: [defaultRealmRole],
    // Only what the API needs: create, read, update and delete users; not realm settings or roles.
    clientRoles: { [REALM_MANAGEMENT_CLIENT]: [...SERVICE_CLIENT_ROLES] },
  };
  return {
    realm: REALM,
    displayName: 'Simulation Portal',
    enabled: true,
    sslRequired: 'external',
    registrationAllowed: false,
    loginWithEmailAllowed: true,
    // Users are created by the portal with their e-mail as the username (the API sends it), and
    // sign in by e-mail; off, so that a learner a platform launched without e-mail can have an
    // account (username `lti-<portal id>`) for the launch sign-in's broker link.
    registrationEmailAsUsername: false,
    editUsernameAllowed: false,
    duplicateEmailsAllowed: false,
    resetPasswordAllowed: true,
    // The local provider's rules (password-policy.ts).
    passwordPolicy: `length(${PASSWORD_MIN_LENGTH}) and maxLength(${PASSWORD_MAX_LENGTH}) and notUsername and notEmail`,
    // How long an invitation link lasts unless the API asks otherwise (execute-actions-email).
    actionTokenGeneratedByAdminLifespan: DEFAULT_ACTION_LIFESPAN_SECONDS,
    // Invitation mails. Keycloak fills the placeholders from the environment at import.
    smtpServer: {
      host: '${SMTP_HOST}',
      port: '${SMTP_PORT:587}',
      from: '${SMTP_FROM}',
      fromDisplayName: DEFAULT_PRODUCT_NAME,
      starttls: 'true',
      ssl: 'false',
      auth: 'true',
      user: '${SMTP_USER}',
      password: '${SMTP_PASSWORD}',
    },
    // Keycloak's brute-force detection with the local provider's values (brute-force.ts). The
    // local provider's per-address cap has no realm setting: put a rate limit in front of Keycloak.
    bruteForceProtected: true,
    ...BRUTE_FORCE,
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
    clients: realmClients(origin),
    // A launch is a sign-in: the portal API's OpenID provider for launched users, brokered as
    // `lti` (the portal starts the sign-in with kc_idp_hint=lti). Its client secret is filled from
    // the environment at import, like the service client's (the API's LTI_BROKER_CLIENT_SECRET).
    identityProviders: [
      launchIdentityProvider({
        alias: DEFAULT_BROKER_ALIAS,
        issuer: `${origin}/api/lti/broker`,
        clientId: DEFAULT_BROKER_CLIENT_ID,
        clientSecret: BROKER_CLIENT_SECRET_PLACEHOLDER,
      }),
    ],
    // No people: a production realm starts with no account anyone knows the password of. The
    // first global administrator is made with `npm run create-admin` (scripts/create-admin.mjs);
    // the demo users are a separate partial import (buildDemoUsersImport).
    users: [serviceAccount],
  };
}

/**
 * The demo accounts for a Keycloak that should have them (a demo or staging installation, the
 * counterpart of SEED_DEMO): a partial import, in the admin console (Realm settings → Action →
 * Partial import) or `POST /admin/realms/main/partialImport`. Existing users are skipped.
 */
export function buildDemoUsersImport() {
  return { ifResourceExists: 'SKIP', users: demoUsers() };
}

function demoUsers() {
  const [defaultRealmRole] = realmDefaultRoles(REALM);
  return SEEDED_ACCOUNTS.map((account) => ({
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
      realmRoles: [defaultRealmRole!, account.role],
      clientRoles: { [CLIENT_ID]: [account.role] },
    }));
}

export const realmExportJson = (): string => `${JSON.stringify(buildRealmExport(), null, 2)}\n`;
export const demoUsersImportJson = (): string => `${JSON.stringify(buildDemoUsersImport(), null, 2)}\n`;
