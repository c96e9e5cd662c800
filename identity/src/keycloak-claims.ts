import type { DemoAccount } from './accounts';

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
  email: string;
  email_verified: boolean;
  name: string;
  given_name: string;
  family_name: string;
  preferred_username: string;
  locale: string;
}

export function userClaims(account: DemoAccount): UserClaims {
  return {
    sub: account.sub,
    email: account.email,
    email_verified: true,
    name: `${account.firstName} ${account.lastName}`,
    given_name: account.firstName,
    family_name: account.lastName,
    // Demo users sign in with their email, so Keycloak would hold it as the username too.
    preferred_username: account.email,
    locale: account.language,
  };
}

export interface RoleClaims {
  realm_access: { roles: string[] };
  resource_access: Record<string, { roles: string[] }>;
}

export function roleClaims(account: DemoAccount, realm: string, clientId: string): RoleClaims {
  return {
    realm_access: { roles: [...realmDefaultRoles(realm), account.role] },
    resource_access: {
      [clientId]: { roles: [account.role] },
      account: { roles: [...ACCOUNT_CLIENT_ROLES] },
    },
  };
}

/** `http://host/realms/main` → `main`. */
export function realmFromIssuer(issuer: string): string {
  const segments = new URL(issuer).pathname.split('/').filter(Boolean);
  return segments.at(-1) ?? 'main';
}
