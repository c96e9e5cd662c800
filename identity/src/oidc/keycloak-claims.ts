import { DEFAULT_LOCALE } from '../i18n/locale';
import { type UserRecord, userLocale } from '../accounts/users';

/**
 * The claims Keycloak puts in tokens for a user of realm `main`, so that the API and the front
 * ends see the same shapes locally as in production.
 */

export const ACCESS_TOKEN_AUDIENCE = 'account';

/** Keycloak's default composite realm role and what it contains. */
export const realmDefaultRoles = (realm: string): string[] => [
  `default-roles-${realm}`,
  'offline_access',
  'uma_authorization',
];

/** Roles Keycloak grants on its built-in `account` client, which is why `aud` is `account`. */
export const ACCOUNT_CLIENT_ROLES = ['manage-account', 'manage-account-links', 'view-profile'];

export interface UserClaims {
  sub: string;
  /** Absent for an account without e-mail, as Keycloak leaves it out. */
  email?: string;
  email_verified: boolean;
  name: string;
  given_name: string;
  family_name: string;
  preferred_username: string;
  locale: string;
}

export function userClaims(user: UserRecord): UserClaims {
  return {
    sub: user.id,
    ...(user.email ? { email: user.email } : {}),
    email_verified: user.emailVerified,
    // Keycloak leaves out the empty part of a name.
    name: [user.firstName, user.lastName].filter(Boolean).join(' '),
    given_name: user.firstName,
    family_name: user.lastName,
    // Users sign in with their email, which the realm also keeps as the username.
    preferred_username: user.username,
    locale: userLocale(user) ?? DEFAULT_LOCALE,
  };
}

export interface RoleClaims {
  realm_access: { roles: string[] };
  resource_access: Record<string, { roles: string[] }>;
}

/**
 * Users created through the admin API have only the default roles: what they may do in the portal
 * comes from the API's database, not from the token.
 */
export function roleClaims(user: UserRecord, realm: string, clientId: string): RoleClaims {
  return {
    realm_access: { roles: [...realmDefaultRoles(realm), ...user.roles] },
    resource_access: {
      ...(user.roles.length > 0 ? { [clientId]: { roles: [...user.roles] } } : {}),
      account: { roles: [...ACCOUNT_CLIENT_ROLES] },
    },
  };
}

/** Keycloak's role-holding client for realm administration, and what our service client holds of it. */
export const REALM_MANAGEMENT_CLIENT = 'realm-management';
export const SERVICE_CLIENT_ROLES = ['manage-users', 'view-users'] as const;

/** What Keycloak puts in a service account's client-credentials access token. */
export function serviceAccountClaims(realm: string, clientId: string, serviceAccountId: string) {
  return {
    sub: serviceAccountId,
    preferred_username: `service-account-${clientId}`,
    clientId,
    realm_access: { roles: realmDefaultRoles(realm) },
    resource_access: { [REALM_MANAGEMENT_CLIENT]: { roles: [...SERVICE_CLIENT_ROLES] } },
  };
}

/** `http://host/realms/main` → `main`. */
export function realmFromIssuer(issuer: string): string {
  const segments = new URL(issuer).pathname.split('/').filter(Boolean);
  return segments.at(-1) ?? 'main';
}
