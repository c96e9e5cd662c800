/**
 * An external OpenID provider this realm brokers, as Keycloak's realm representation names it
 * (`identityProviders[]`, providerId `oidc`). The same entry goes into the realm export, so a real
 * Keycloak brokers the portal's launch sign-in by configuration alone; config values are strings
 * there, as Keycloak stores them.
 */
export interface IdentityProviderRepresentation {
  alias: string;
  displayName: string;
  providerId: 'oidc';
  enabled: boolean;
  trustEmail: boolean;
  storeToken: boolean;
  addReadTokenRoleOnCreate: boolean;
  linkOnly: boolean;
  /** Keycloak's flow after the first brokered sign-in of an unlinked identity (see README). */
  firstBrokerLoginFlowAlias: string;
  config: {
    authorizationUrl: string;
    tokenUrl: string;
    jwksUrl: string;
    userInfoUrl: string;
    issuer: string;
    clientId: string;
    clientSecret: string;
    clientAuthMethod: 'client_secret_post' | 'client_secret_basic';
    defaultScope: string;
    validateSignature: 'true' | 'false';
    useJwksUrl: 'true' | 'false';
    pkceEnabled: 'true' | 'false';
    pkceMethod: 'S256';
    syncMode: 'IMPORT' | 'FORCE' | 'LEGACY';
    passLoginHint: 'true' | 'false';
    hideOnLoginPage: 'true' | 'false';
  };
}

export interface LaunchBrokerSettings {
  alias: string;
  /** The API's broker issuer, e.g. `https://portal.example.com/api/lti/broker`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The portal's launch sign-in (the API's OpenID provider at `{portal}/api/lti/broker`): hidden
 * on the sign-in page (only a launch's `kc_idp_hint` reaches it), signature checked against its
 * JWKS, PKCE, the launch passed as `login_hint`. `syncMode` IMPORT: the portal keeps the
 * account's names itself (through the admin API), the broker's claims only identify.
 */
export function launchIdentityProvider({ alias, issuer, clientId, clientSecret }: LaunchBrokerSettings): IdentityProviderRepresentation {
  return {
    alias,
    displayName: 'Learning platform',
    providerId: 'oidc',
    enabled: true,
    // Accounts are found by their link only; the e-mail is never a reason to link or to trust.
    trustEmail: false,
    storeToken: false,
    addReadTokenRoleOnCreate: false,
    linkOnly: false,
    // Keycloak's built-in flow (it must exist at import); identity/README says how to make it
    // refuse unlinked identities as the bundled provider does.
    firstBrokerLoginFlowAlias: 'first broker login',
    config: {
      authorizationUrl: `${issuer}/auth`,
      tokenUrl: `${issuer}/token`,
      jwksUrl: `${issuer}/certs`,
      userInfoUrl: `${issuer}/userinfo`,
      issuer,
      clientId,
      clientSecret,
      clientAuthMethod: 'client_secret_post',
      defaultScope: 'openid profile email',
      validateSignature: 'true',
      useJwksUrl: 'true',
      pkceEnabled: 'true',
      pkceMethod: 'S256',
      syncMode: 'IMPORT',
      passLoginHint: 'true',
      hideOnLoginPage: 'true',
    },
  };
}
