import { createHash, randomBytes } from 'node:crypto';

import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';

import type { UserStore } from '../accounts/users';
import type { IdentityProviderRepresentation } from './identity-providers';

/** Keycloak's hint naming the identity provider to go to at once (AdapterConstants.KC_IDP_HINT). */
export const KC_IDP_HINT = 'kc_idp_hint';

/** A brokered sign-in must come back within this time (Keycloak's "login timeout" is 30 min). */
const PENDING_TTL_MS = 10 * 60_000;
const MAX_PENDING = 10_000;
const TOKEN_TIMEOUT_MS = 10_000;

/** Why a brokered sign-in ended without an account; each has its message on the sign-in page. */
export type BrokerFailure = 'failed' | 'not_linked' | 'disabled';

export type BrokerOutcome = { accountId: string } | { failure: BrokerFailure };

interface Pending {
  uid: string;
  alias: string;
  nonce: string;
  verifier: string;
}

export interface BrokeredLogins {
  /** The enabled provider of that alias, or undefined (an unknown hint shows the sign-in form). */
  provider(alias: string): IdentityProviderRepresentation | undefined;
  /** Where to send the browser for the interaction `uid` (Keycloak's IdentityBrokerService.performLogin). */
  start(idp: IdentityProviderRepresentation, uid: string, loginHint: string | undefined): string;
  /**
   * The provider's answer at `{realm}/broker/{alias}/endpoint`: exchanges the code, validates the
   * ID token and finds the account by its federated identity link. Null for an unknown state (a
   * stale or forged callback): there is no interaction to return to.
   */
  complete(alias: string, query: Record<string, string | undefined>): Promise<{ uid: string; outcome: BrokerOutcome } | null>;
  /** The outcome of the interaction's brokered sign-in, once (the interaction page takes it). */
  takeOutcome(uid: string): BrokerOutcome | undefined;
  /** Whether the interaction already tried the provider (a failure shows the form, not a loop). */
  tried(uid: string): boolean;
}

const randomValue = () => randomBytes(32).toString('base64url');

/**
 * Identity brokering of external OpenID providers, the way Keycloak does it: `kc_idp_hint`
 * skips the sign-in form, the provider's code comes back to `{realm}/broker/{alias}/endpoint`,
 * its ID token is checked (signature against its JWKS, iss, aud, nonce, exp) and the account is
 * the one linked to the provider's `sub` (first broker login links nothing: an unlinked identity
 * is refused, never matched by e-mail or username).
 */
export function createBrokeredLogins(options: {
  issuer: string;
  providers: IdentityProviderRepresentation[];
  users: UserStore;
  logger: Logger;
  fetchImpl?: typeof fetch;
}): BrokeredLogins {
  const { issuer, users, logger } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  const pending = new LRUCache<string, Pending>({ max: MAX_PENDING, ttl: PENDING_TTL_MS });
  const outcomes = new LRUCache<string, BrokerOutcome>({ max: MAX_PENDING, ttl: PENDING_TTL_MS });
  const triedUids = new LRUCache<string, true>({ max: MAX_PENDING, ttl: PENDING_TTL_MS });
  const keySets = new Map<string, JWTVerifyGetKey>();
  const redirectUri = (alias: string) => `${issuer}/broker/${alias}/endpoint`;
  const providerOf = (alias: string) => options.providers.find((idp) => idp.alias === alias && idp.enabled);

  function keysOf(idp: IdentityProviderRepresentation): JWTVerifyGetKey {
    let keys = keySets.get(idp.alias);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(idp.config.jwksUrl));
      keySets.set(idp.alias, keys);
    }
    return keys;
  }

  async function exchange(idp: IdentityProviderRepresentation, code: string, entry: Pending): Promise<string> {
    const { config } = idp;
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri(idp.alias),
      code_verifier: entry.verifier,
    });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (config.clientAuthMethod === 'client_secret_basic') {
      const credentials = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(config.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
    } else {
      form.set('client_id', config.clientId);
      form.set('client_secret', config.clientSecret);
    }
    const response = await fetchImpl(config.tokenUrl, {
      method: 'POST',
      headers,
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    const body = (await response.json().catch(() => ({}))) as { id_token?: unknown; error?: unknown };
    if (!response.ok || typeof body.id_token !== 'string') {
      throw new Error(`token endpoint answered ${response.status} ${typeof body.error === 'string' ? body.error : ''}`.trim());
    }
    return body.id_token;
  }

  async function subjectOf(idp: IdentityProviderRepresentation, idToken: string, entry: Pending): Promise<string> {
    const { payload } = await jwtVerify(idToken, keysOf(idp), {
      issuer: idp.config.issuer,
      audience: idp.config.clientId,
      algorithms: ['RS256', 'ES256', 'PS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (payload.nonce !== entry.nonce) throw new Error('ID token nonce does not match');
    return payload.sub!;
  }

  async function outcomeOf(idp: IdentityProviderRepresentation, query: Record<string, string | undefined>, entry: Pending): Promise<BrokerOutcome> {
    if (query.error !== undefined || !query.code) {
      logger.info({ identityProvider: idp.alias, error: query.error, description: query.error_description }, 'brokered sign-in refused by the provider');
      return { failure: 'failed' };
    }
    let sub: string;
    try {
      sub = await subjectOf(idp, await exchange(idp, query.code, entry), entry);
    } catch (error) {
      logger.warn({ identityProvider: idp.alias, err: error }, 'brokered sign-in failed');
      return { failure: 'failed' };
    }
    const account = users.findByFederatedIdentity(idp.alias, sub);
    if (!account) {
      logger.info({ identityProvider: idp.alias, brokerSub: sub }, 'brokered sign-in refused: no account is linked to this identity');
      return { failure: 'not_linked' };
    }
    if (!account.enabled) return { failure: 'disabled' };
    logger.info({ identityProvider: idp.alias, sub: account.id }, 'user signed in through an identity provider');
    return { accountId: account.id };
  }

  return {
    provider: providerOf,

    start(idp, uid, loginHint) {
      const state = randomValue();
      const entry: Pending = { uid, alias: idp.alias, nonce: randomValue(), verifier: randomValue() };
      pending.set(state, entry);
      triedUids.set(uid, true);
      const url = new URL(idp.config.authorizationUrl);
      const params: Record<string, string> = {
        scope: idp.config.defaultScope,
        state,
        response_type: 'code',
        client_id: idp.config.clientId,
        redirect_uri: redirectUri(idp.alias),
        nonce: entry.nonce,
      };
      if (idp.config.pkceEnabled === 'true') {
        params.code_challenge = createHash('sha256').update(entry.verifier).digest('base64url');
        params.code_challenge_method = 'S256';
      }
      if (idp.config.passLoginHint === 'true' && loginHint) params.login_hint = loginHint;
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },

    async complete(alias, query) {
      const state = query.state;
      const entry = state ? pending.get(state) : undefined;
      if (!state || !entry || entry.alias !== alias) return null;
      pending.delete(state);
      const idp = providerOf(alias);
      const outcome: BrokerOutcome = idp ? await outcomeOf(idp, query, entry) : { failure: 'failed' };
      outcomes.set(entry.uid, outcome);
      return { uid: entry.uid, outcome };
    },

    takeOutcome(uid) {
      const outcome = outcomes.get(uid);
      if (outcome) outcomes.delete(uid);
      return outcome;
    },

    tried: (uid) => triedUids.has(uid),
  };
}
