import type { Logger } from 'pino';
import { crossSiteCookieAttributes } from '@portal/service-kit';
import Provider, {
  errors,
  interactionPolicy,
  type AccessToken,
  type ClientMetadata,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';

import { createSignInGuard, type SignInGuard } from '../security/brute-force';
import { DEVICE_CODE_GRANT_TYPE, DEVICE_CODE_TTL_SECONDS, deviceFlowFeature, deviceFlowMiddleware, devicePrompt } from '../routes/device-flow';
import {
  ACCESS_TOKEN_AUDIENCE,
  realmFromIssuer,
  REALM_MANAGEMENT_CLIENT,
  roleClaims,
  serviceAccountClaims,
  userClaims,
} from './keycloak-claims';
import { createMemoryStore, DEFAULT_MAX_ENTRIES_PER_MODEL, type MemoryStore } from './memory-store';
import type { UserStore } from '../accounts/users';
import type { SigningJwks } from './signing-keys';
import type { Pages } from '../http/pages';
import { KC_IDP_HINT } from '../broker/brokered-login';
import { KC_ACTION_PARAM, reportKcActionStatus, updatePasswordPrompt } from '../routes/interactions/kc-action';
import { LOCALE_PARAM } from '../i18n/locale';
import { logoutPage } from './logout-page';
import { installSessionManagement } from './session-management';
import { messagePage } from '../views/message-page';

export const CLIENT_ID = 'frontend';
/**
 * The confidential client the portal API creates users with (Keycloak Admin REST API, client
 * credentials). Its service account holds realm-management's manage-users and view-users.
 */
export const SERVICE_CLIENT_ID = 'portal-api';
/** Keycloak gives each service account a user id; ours is fixed, so its tokens' `sub` is stable. */
export const SERVICE_ACCOUNT_ID = 'c0a8e1f4-3b7d-4e52-9a16-5d2f8b7c9e01';

/** Keycloak's endpoint layout, relative to the realm (the issuer path). */
export const OIDC_PATH = '/protocol/openid-connect';
export const ROUTES = {
  authorization: `${OIDC_PATH}/auth`,
  token: `${OIDC_PATH}/token`,
  end_session: `${OIDC_PATH}/logout`,
  userinfo: `${OIDC_PATH}/userinfo`,
  jwks: `${OIDC_PATH}/certs`,
  revocation: `${OIDC_PATH}/revoke`,
  introspection: `${OIDC_PATH}/token/introspect`,
  /** Served by our own route (routes/login-status); the library has no session management. */
  check_session_iframe: `${OIDC_PATH}/login-status-iframe.html`,
  device_authorization: `${OIDC_PATH}/auth/device`,
  /** The user code page; the library resumes device sign-ins below it (`/device/{uid}`). */
  code_verification: '/device',
} as const;

/** Where our own sign-in pages live, relative to the realm. */
export const INTERACTION_PATH = '/interaction';

/**
 * The one resource server: every access token is a JWT for Keycloak's `account` audience. The
 * indicator itself is internal (clients never need to send `resource`), but must be an absolute URI.
 */
const ACCOUNT_RESOURCE = 'urn:portal:resource:account';
const ACCOUNT_RESOURCE_SCOPE = 'openid profile email';

/** Keycloak's default "SSO Session Max": the session, its grant and its refresh tokens end together. */
export const SSO_SESSION_MAX_SECONDS = 10 * 60 * 60;

const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email'];
const PROFILE_CLAIMS = ['name', 'given_name', 'family_name', 'preferred_username', 'locale'];
const EMAIL_CLAIMS = ['email', 'email_verified'];

export interface ProviderOptions {
  issuer: string;
  frontendOrigins: string[];
  accessTokenTtl: number;
  cookieKeys: string[];
  jwks: SigningJwks;
  logger: Logger;
  users: UserStore;
  /** Without it the service client does not exist, and nobody can use the admin API. */
  serviceClientSecret?: string;
  /** Sessions, grants and tokens; created here unless the caller needs to reach it too. */
  sessionStore?: MemoryStore;
  /**
   * Bound of each in-memory model (sessions, grants, refresh tokens, …); see memory-store.ts for
   * how the default was sized.
   */
  storeMaxEntriesPerModel?: number;
  /** Brute-force detection shared with the sign-in and set-password pages; its own otherwise. */
  guard?: SignInGuard;
  /** How the library's own pages (logout, errors, the device code page) are rendered. */
  pages: Pages;
}

/** Whether the logout request carries a hint for the very session it would end. */
function hintMatchesSession(ctx: KoaContextWithOIDC): boolean {
  // Present only after the library verified its signature, issuer and audience (expiry ignored:
  // the portal may hold an ID token older than its 5 minutes).
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown; sid?: unknown } } | undefined;
  const { session } = ctx.oidc;
  if (!hint?.payload || !session?.accountId) return false;
  // A hint signed for someone else's session (an attacker's own ID token in a link) must not log
  // this user out without asking.
  return hint.payload.sub === session.accountId && hint.payload.sid === session.uid;
}

/**
 * Where the portal's sign-ins return: the sign-in callback and the silent session check, at the
 * root and under /lti/ for the launch pages a learning platform frames (the host lets the platforms
 * frame only its /lti/ pages, so an embedded launch's sign-in must come back there).
 */
export const PORTAL_RETURN_PATHS = ['/auth/callback', '/silent-check-sso.html', '/lti/auth/callback', '/lti/silent-check-sso.html'];

export function frontendClient(origins: string[]): ClientMetadata {
  return {
    client_id: CLIENT_ID,
    client_name: 'Simulation Portal',
    application_type: 'web',
    token_endpoint_auth_method: 'none',
    // PKCE stays required for authorization codes; the device grant has no redirect to protect.
    grant_types: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT_TYPE],
    response_types: ['code'],
    redirect_uris: origins.flatMap((origin) => PORTAL_RETURN_PATHS.map((path) => `${origin}${path}`)),
    post_logout_redirect_uris: origins.flatMap((origin) => [`${origin}/logout`, `${origin}/`]),
  };
}

export function serviceClient(secret: string): ClientMetadata {
  return {
    client_id: SERVICE_CLIENT_ID,
    client_secret: secret,
    client_name: 'Simulation Portal API',
    application_type: 'web',
    // Registered as basic; the library accepts client_secret_post for it too (Keycloak does both).
    token_endpoint_auth_method: 'client_secret_basic',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
  };
}

/**
 * The library's prompts (login, consent), then ours: allowing a device after sign-in, and
 * Keycloak's UPDATE_PASSWORD action.
 */
function buildInteractionPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy.add(devicePrompt());
  policy.add(updatePasswordPrompt());
  return policy;
}

/** The provider's in-memory models, with a warning when they are too small for the load. */
export function createSessionStore(logger: Logger, maxEntriesPerModel = DEFAULT_MAX_ENTRIES_PER_MODEL): MemoryStore {
  // Throttled: under a flood every write evicts, and one line a minute says enough.
  let lastEvictionLog = 0;
  return createMemoryStore({
    maxEntriesPerModel,
    onEvict(model) {
      if (Date.now() - lastEvictionLog < 60_000) return;
      lastEvictionLog = Date.now();
      logger.warn({ model, maxEntriesPerModel }, 'in-memory store full: least recently used entries dropped');
    },
  });
}

/** The session a token or code belongs to; Keycloak calls it `sid` (and `session_state`). */
const sessionUidOf = (token: unknown): string | undefined =>
  (token as { sessionUid?: string } | undefined)?.sessionUid;

/**
 * Who may learn what a token is (the introspection endpoint): a client that proved who it is (the
 * API's service client) any token of the realm, a public client (the portal) only its own. This is
 * the library's default rule, written here so it is ours: left to the default, the library prints
 * a notice on standard output at the first introspection, and node 20's test runner could hang on
 * such text between a test file's reports (docs/conventions.md, "Tests").
 */
export function introspectionAllowed(
  ctx: { oidc: { client?: { clientId: string } } },
  client: { clientAuthMethod?: string | undefined },
  token: { clientId?: string },
): boolean {
  if (client.clientAuthMethod !== 'none') return true;
  return token.clientId !== undefined && token.clientId === ctx.oidc.client?.clientId;
}

/** The library's features as Keycloak offers them; the device flow and logout show our pages. */
function features(options: ProviderOptions, mountPath: string): Configuration['features'] {
  const { pages, logger, accessTokenTtl } = options;
  return {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true, allowedPolicy: async (ctx, client, token) => introspectionAllowed(ctx, client, token) },
    revocation: { enabled: true },
    userinfo: { enabled: true },
    pushedAuthorizationRequests: { enabled: false },
    deviceFlow: deviceFlowFeature({
      action: `${mountPath}${ROUTES.code_verification}`,
      pages,
      logger,
    }),
    rpInitiatedLogout: {
      enabled: true,
      async logoutSource(ctx, form) {
        // Only an ID token of this very session proves the portal sent the user here (Keycloak
        // asks too without one); a bare client_id is public, any page could link with it.
        // Back to the portal that asked (its post-logout URI is registered, so its origin is ours).
        const target = ctx.oidc.params?.post_logout_redirect_uri;
        const stayHref = typeof target === 'string' ? `${new URL(target).origin}/` : undefined;
        const autoSubmit = hintMatchesSession(ctx);
        pages.sendFromProvider(ctx, (frame) => logoutPage(frame, { form, autoSubmit, stayHref }));
      },
      async postLogoutSuccessSource(ctx) {
        pages.sendFromProvider(ctx, (frame) => messagePage(frame, { title: 'Logged out', message: 'You have logged out.' }));
      },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => ACCOUNT_RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo(_ctx, resourceIndicator, client) {
        if (resourceIndicator !== ACCOUNT_RESOURCE) {
          throw new errors.InvalidTarget();
        }
        return {
          scope: ACCOUNT_RESOURCE_SCOPE,
          // Keycloak adds a client to the audience when the token carries roles of it.
          audience: client.clientId === SERVICE_CLIENT_ID ? REALM_MANAGEMENT_CLIENT : ACCESS_TOKEN_AUDIENCE,
          accessTokenFormat: 'jwt',
          accessTokenTTL: accessTokenTtl,
          jwt: { sign: { alg: 'RS256' } },
        };
      },
    },
  };
}

/** Accounts come from the user store; the first-party client needs no consent screen. */
function accountHooks(users: UserStore): Pick<Configuration, 'findAccount' | 'loadExistingGrant'> {
  return {
  // A deleted or disabled user is unknown here, so their refresh tokens stop working at once.
  async findAccount(_ctx, sub, token) {
    const user = users.get(sub);
    if (!user?.enabled) return undefined;
    const sid = sessionUidOf(token);
    return {
      accountId: user.id,
      claims: () => ({ ...userClaims(user), ...(sid ? { sid } : {}) }),
    };
  },

  // First-party client: grant whatever it asks for instead of showing a consent screen.
  async loadExistingGrant(ctx) {
    const { client, session, provider } = ctx.oidc;
    if (!client || !session?.accountId) return undefined;
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    const grant =
      (grantId ? await provider.Grant.find(grantId) : undefined) ??
      new provider.Grant({ accountId: session.accountId, clientId: client.clientId });
    const requested = [...ctx.oidc.requestParamScopes].filter((scope) => OIDC_SCOPES.includes(scope));
    grant.addOIDCScope(requested.join(' '));
    grant.addOIDCClaims([...ctx.oidc.requestParamClaims]);
    for (const [indicator, resourceServer] of Object.entries(ctx.oidc.resourceServers ?? {})) {
      if (resourceServer.scope) grant.addResourceScope(indicator, resourceServer.scope);
    }
    await grant.save();
    return grant;
  },
  };
}

function ttls(accessTokenTtl: number): Configuration['ttl'] {
  return {
    AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
    // The service client's tokens live as long as users' access tokens, as in Keycloak.
    ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? accessTokenTtl,
    AuthorizationCode: 60,
    // Keycloak's default "OAuth 2.0 Device Code Lifespan".
    DeviceCode: DEVICE_CODE_TTL_SECONDS,
    IdToken: accessTokenTtl,
    Interaction: 30 * 60,
    // A rotated token inherits what is left of the first one's lifetime: rotation must not stretch
    // a sign-in past the session maximum.
    RefreshToken: (ctx) => ctx?.oidc.entities.RotatedRefreshToken?.remainingTTL ?? SSO_SESSION_MAX_SECONDS,
    Grant: SSO_SESSION_MAX_SECONDS,
    Session: SSO_SESSION_MAX_SECONDS,
  };
}

type JwtCustomizer = NonNullable<NonNullable<Configuration['formats']>['customizers']>['jwt'];

/** Adds what Keycloak puts in its access tokens and what the API reads. */
function keycloakTokenClaims({ realm, users, frontendOrigins }: { realm: string; users: UserStore; frontendOrigins: string[] }): JwtCustomizer {
  return (_ctx, token, parts) => {
      if (token.kind === 'ClientCredentials') {
        if (token.clientId !== SERVICE_CLIENT_ID) return parts;
        Object.assign(parts.payload, {
          ...serviceAccountClaims(realm, SERVICE_CLIENT_ID, SERVICE_ACCOUNT_ID),
          typ: 'Bearer',
          azp: SERVICE_CLIENT_ID,
        });
        return parts;
      }
      const accessToken = token as AccessToken;
      const user = accessToken.accountId ? users.get(accessToken.accountId) : undefined;
      if (!user) return parts;
      const sid = sessionUidOf(accessToken);
      Object.assign(parts.payload, {
        ...userClaims(user),
        ...roleClaims(user, realm, accessToken.clientId ?? CLIENT_ID),
        typ: 'Bearer',
        azp: accessToken.clientId ?? CLIENT_ID,
        ...(sid ? { sid, session_state: sid } : {}),
        'allowed-origins': frontendOrigins,
      });
      return parts;
  };
}

function errorPage(pages: Pages, logger: Logger): Configuration['renderError'] {
  return async (ctx, out, error) => {
    if (ctx.status >= 500) {
      logger.error({ err: error }, 'identity provider error');
    }
    pages.sendFromProvider(ctx, (frame) =>
      messagePage(frame, {
        title: 'Something went wrong',
        message: 'The sign-in request could not be completed. Return to the application and try again.',
        detail: ctx.status >= 500 ? undefined : `${out.error}: ${out.error_description ?? ''}`.trim(),
      }),
    );
  };
}

/** One log line per refused request; a waiting device's polls and reused refresh tokens aside. */
function logRefusals(provider: Provider, logger: Logger): void {
  provider.on('server_error', (_ctx, err) => logger.error({ err }, 'oidc server error'));
  for (const event of [
    'authorization.error',
    'grant.error',
    'end_session.error',
    'device_authorization.error',
    'code_verification.error',
    'device_resume.error',
  ] as const) {
    provider.on(event, (_ctx: unknown, err: { message?: string; error_description?: string; error_detail?: string }) => {
      // A waiting device polls every few seconds; each "not yet" is expected, not a refusal.
      if (err.message === 'authorization_pending') return;
      if (err.error_detail === 'refresh token already used') {
        logger.warn({ event }, 'rotated refresh token used again: grant revoked');
        return;
      }
      logger.info(
        { event, error: err.message, description: err.error_description, detail: err.error_detail },
        'oidc request refused',
      );
    });
  }
}

/**
 * Koa (under oidc-provider) refuses to set a Secure cookie on a plain-http request. Browsers keep
 * Secure cookies from loopback http ("potentially trustworthy"), so there the provider's requests
 * count as secure for its cookies; https issuers are unaffected (their requests are secure).
 */
function trustLoopbackAsSecure(provider: Provider): void {
  Object.defineProperty(provider.app.request, 'secure', { get: () => true, configurable: true });
}

export function createProvider(options: ProviderOptions): Provider {
  const { issuer, frontendOrigins, accessTokenTtl, cookieKeys, jwks, logger, users, serviceClientSecret } = options;
  const storeMax = options.storeMaxEntriesPerModel ?? DEFAULT_MAX_ENTRIES_PER_MODEL;
  const realm = realmFromIssuer(issuer);
  const mountPath = new URL(issuer).pathname;
  const { pages } = options;
  const { check_session_iframe: _ours, ...libraryRoutes } = ROUTES;
  const cookieAttributes = crossSiteCookieAttributes(issuer);

  const configuration: Configuration = {
    adapter: options.sessionStore ?? createSessionStore(logger, storeMax),
    clients: [frontendClient(frontendOrigins), ...(serviceClientSecret ? [serviceClient(serviceClientSecret)] : [])],
    jwks: jwks as Configuration['jwks'],
    routes: libraryRoutes,
    // Published as Keycloak does; the iframe itself is routes/login-status.
    discovery: { check_session_iframe: `${issuer}${ROUTES.check_session_iframe}` },
    responseTypes: ['code'],
    // Keycloak's application-initiated action, page language and identity provider hint, kept
    // for the interaction.
    extraParams: [KC_ACTION_PARAM, LOCALE_PARAM, KC_IDP_HINT],
    pkce: { methods: ['S256'], required: () => true },
    scopes: [...OIDC_SCOPES],
    // Keycloak applies its default client scopes (profile, email) to every request, so these
    // claims come with `openid` alone; `sid` rides along so ID tokens carry the session too.
    claims: {
      openid: ['sub', 'sid', ...PROFILE_CLAIMS, ...EMAIL_CLAIMS],
      profile: PROFILE_CLAIMS,
      email: EMAIL_CLAIMS,
    },
    conformIdTokenClaims: false,

    cookies: {
      keys: cookieKeys,
      // An embedded launch's brokered sign-in passes here inside the learning platform's frame
      // (another site), where only SameSite=None cookies come back; browsers take None only with
      // Secure, which they keep on https and on loopback http. Elsewhere on http: Lax (enough for
      // the portal's own silent-SSO iframe, the same site). As Keycloak's cookies on https.
      long: { httpOnly: true, signed: true, ...cookieAttributes },
      short: { httpOnly: true, signed: true, ...cookieAttributes },
    },

    clientBasedCORS: (_ctx, origin) => frontendOrigins.includes(origin),

    features: features(options, mountPath),

    interactions: {
      policy: buildInteractionPolicy(),
      url: (_ctx, interaction) => `${mountPath}${INTERACTION_PATH}/${interaction.uid}`,
    },

    ...accountHooks(users),

    // Keycloak hands out refresh tokens without `offline_access`; they still end with the session.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Keycloak's "Revoke Refresh Token" with max reuse 0: every refresh answers a new refresh
    // token and consumes the old one. A second use of a consumed token means two parties hold it
    // (a thief, or a lost response): the library refuses it (invalid_grant) and revokes the grant,
    // so the other party's newer refresh token dies too — as Keycloak detaches the client session.
    // The portal's tabs share one stored token and refresh one at a time under a cross-tab lock,
    // re-reading the store first (shared-auth token-manager.ts), so they never present a stale one.
    rotateRefreshToken: true,

    ttl: ttls(accessTokenTtl),
    formats: { customizers: { jwt: keycloakTokenClaims({ realm, users, frontendOrigins }) } },
    renderError: errorPage(pages, logger),
  };

  const provider = new Provider(issuer, configuration);
  if (cookieAttributes.secure && new URL(issuer).protocol === 'http:') trustLoopbackAsSecure(provider);
  provider.use(
    deviceFlowMiddleware({
      mountPath,
      verificationRoute: ROUTES.code_verification,
      authorizationRoute: ROUTES.device_authorization,
      pages,
      guard: options.guard ?? createSignInGuard(),
    }),
  );

  installSessionManagement(provider, { mountPath });
  reportKcActionStatus(provider);
  logRefusals(provider, logger);
  return provider;
}
