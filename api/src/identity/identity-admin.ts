import KcAdminClient from '@keycloak/keycloak-admin-client';
import { currentRequestId, REQUEST_ID_HEADER } from '@portal/service-kit';
import type { IdentityAdminConfig } from '../config';

/** The names and e-mail an account carries; the e-mail is also its username. */
export interface AccountFields {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * A new account: with an e-mail, that is its username; a launched learner without one has the
 * username provisioning.ts `accountUsername` derives.
 */
export type NewAccountFields =
  | AccountFields
  | (Omit<AccountFields, 'email'> & { email: null; username: string });

/**
 * What the API asks of the identity provider: the subset of Keycloak's Admin REST API that
 * `identity/` implements too, so one code path serves both.
 */
export interface IdentityAdmin {
  /** The account whose e-mail is exactly this one (case-insensitive), or null. */
  findByEmail(email: string): Promise<{ id: string } | null>;
  /** The account whose username is exactly this one, or null. */
  findByUsername(username: string): Promise<{ id: string } | null>;
  /**
   * A new enabled account that must set a password (required action UPDATE_PASSWORD), its e-mail
   * not verified: it becomes verified when the invitation's link is used (the set-password page).
   * A `launched` account (its user came from a learning platform and signs in by launch) gets no
   * required action: Keycloak would otherwise ask for a password after the brokered sign-in.
   */
  create(fields: NewAccountFields, options?: { launched?: boolean }): Promise<{ id: string }>;
  /** The invitation: an e-mail with a link to set the password, back to the portal after. */
  sendInvitation(id: string): Promise<void>;
  /**
   * false when the account does not exist (any more). `emailVerified: true` only for an e-mail
   * its owner confirmed; without it the flag is left as it is.
   */
  update(id: string, fields: AccountFields & { emailVerified?: true }): Promise<boolean>;
  /** false when the account did not exist. */
  remove(id: string): Promise<boolean>;
  /**
   * Links the account to the identity `link.userId` at the brokered identity provider
   * `link.identityProvider` (Keycloak's federated identity). Idempotent: an existing link to the
   * same identity is `linked`; a link of the account to another identity of that provider is
   * `conflict`; a missing account is `not_found`.
   */
  linkFederatedIdentity(id: string, link: FederatedIdentityLink): Promise<'linked' | 'conflict' | 'not_found'>;
}

/** Keycloak's FederatedIdentityRepresentation. */
export interface FederatedIdentityLink {
  identityProvider: string;
  userId: string;
  userName: string;
}

/**
 * A failed identity call. `delivered: false` means the provider certainly did not act on it (it
 * answered with an error, or could not be reached); otherwise the request may have been acted on
 * before the failure (a timeout, a connection cut mid-answer).
 */
export class IdentityCallError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly delivered: boolean | 'unknown',
  ) {
    super(message);
    this.name = 'IdentityCallError';
  }
}

/** Connection errors that happen before a request leaves: nothing can have been acted on. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

export function toIdentityCallError(error: unknown, what: string): IdentityCallError {
  if (error instanceof IdentityCallError) return error;
  const e = error as {
    message?: unknown;
    response?: { status?: unknown };
    responseData?: unknown;
    cause?: { code?: unknown };
  };
  const status = typeof e.response?.status === 'number' ? e.response.status : null;
  if (status !== null) {
    const detail =
      typeof e.responseData === 'object' && e.responseData !== null
        ? JSON.stringify(e.responseData).slice(0, 300)
        : String(e.message ?? '');
    return new IdentityCallError(`${what}: HTTP ${status} ${detail}`, status, false);
  }
  const code = typeof e.cause?.code === 'string' ? e.cause.code : null;
  const message = `${what}: ${String(e.message ?? error)}${code ? ` (${code})` : ''}`;
  return new IdentityCallError(
    message,
    null,
    code !== null && NOT_SENT_CODES.has(code) ? false : 'unknown',
  );
}

export interface KeycloakIdentityAdminOptions {
  /** The client whose sign-in the invitation link ends in (the portal's, `frontend`). */
  invitationClientId: string;
  /** Where the browser goes once the password is set: the portal's origin. */
  portalUrl: string;
  /** Seconds the invitation link stays valid. */
  invitationLifespanSeconds?: number;
  /** Per request; a hung provider must not hold the worker's lease for ever. */
  timeoutMs?: number;
}

/**
 * The admin client, each call of which carries the id of the API request it is made for (when it
 * is made inside one) in X-Request-Id, so the identity provider's log line shares the API's id.
 * The library asks for its request options anew for every call.
 */
class RequestIdAdminClient extends KcAdminClient {
  override getRequestOptions(): ReturnType<KcAdminClient['getRequestOptions']> {
    const options = super.getRequestOptions();
    const requestId = currentRequestId();
    if (!requestId) return options;
    const headers = new Headers(options?.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    return { ...options, headers };
  }
}

/** Three days: long enough for a weekend, short enough that a forwarded mail goes stale. */
export const INVITATION_LIFESPAN_SECONDS = 3 * 24 * 3600;

/**
 * The Keycloak Admin REST API through @keycloak/keycloak-admin-client, signed in as a confidential
 * service client with the client-credentials grant. Such tokens come without a refresh token, so
 * a new one is fetched when the old one is about to expire or a call answers 401.
 */
export function createKeycloakIdentityAdmin(
  config: IdentityAdminConfig,
  options: KeycloakIdentityAdminOptions,
): IdentityAdmin {
  const client = new RequestIdAdminClient({
    baseUrl: config.baseUrl,
    realmName: config.realm,
    timeout: options.timeoutMs ?? 20_000,
  });
  let signedIn: Promise<void> | null = null;

  const signIn = (force: boolean): Promise<void> => {
    if (!force && client.accessToken && !client.isTokenExpired()) return Promise.resolve();
    // Concurrent calls share one token request.
    signedIn ??= client
      .auth({
        grantType: 'client_credentials',
        clientId: config.clientId,
        clientSecret: config.clientSecret,
      })
      .catch((error: unknown) => {
        throw toIdentityCallError(error, 'service client sign-in');
      })
      .finally(() => {
        signedIn = null;
      });
    return signedIn;
  };

  /** Runs `call` signed in; once more with a fresh token when the provider answers 401. */
  async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    await signIn(false);
    try {
      return await fn();
    } catch (error) {
      const failed = toIdentityCallError(error, what);
      if (failed.status !== 401) throw failed;
    }
    await signIn(true);
    try {
      return await fn();
    } catch (error) {
      throw toIdentityCallError(error, what);
    }
  }

  const notFound = (error: unknown) => error instanceof IdentityCallError && error.status === 404;

  return {
    async findByEmail(email) {
      const found = await call('find user by e-mail', () =>
        client.users.find({ email, exact: true, max: 2 }),
      );
      const match = found.find((u) => u.email?.toLowerCase() === email.toLowerCase() && u.id);
      return match?.id ? { id: match.id } : null;
    },

    async findByUsername(username) {
      const found = await call('find user by username', () =>
        client.users.find({ username, exact: true, max: 2 }),
      );
      const match = found.find((u) => u.username?.toLowerCase() === username.toLowerCase() && u.id);
      return match?.id ? { id: match.id } : null;
    },

    async create(fields, createOptions) {
      const created = await call('create user', () =>
        client.users.create({
          ...(fields.email === null
            ? { username: fields.username }
            : { username: fields.email, email: fields.email }),
          firstName: fields.firstName,
          lastName: fields.lastName,
          enabled: true,
          // Said, not left to the default: nobody has confirmed this address yet.
          emailVerified: false,
          requiredActions: createOptions?.launched ? [] : ['UPDATE_PASSWORD'],
        }),
      );
      return { id: created.id };
    },

    async sendInvitation(id) {
      await call('send invitation', () =>
        client.users.executeActionsEmail({
          id,
          actions: ['UPDATE_PASSWORD'],
          clientId: options.invitationClientId,
          redirectUri: `${options.portalUrl}/`,
          lifespan: options.invitationLifespanSeconds ?? INVITATION_LIFESPAN_SECONDS,
        }),
      );
    },

    async update(id, fields) {
      try {
        await call('update user', () =>
          client.users.update(
            { id },
            {
              username: fields.email,
              email: fields.email,
              firstName: fields.firstName,
              lastName: fields.lastName,
              ...(fields.emailVerified ? { emailVerified: true } : {}),
            },
          ),
        );
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },

    async remove(id) {
      try {
        await call('delete user', () => client.users.del({ id }));
        return true;
      } catch (error) {
        if (notFound(error)) return false;
        throw error;
      }
    },

    async linkFederatedIdentity(id, link) {
      try {
        await call('link federated identity', () =>
          client.users.addToFederatedIdentity({
            id,
            federatedIdentityId: link.identityProvider,
            federatedIdentity: link,
          }),
        );
        return 'linked';
      } catch (error) {
        if (notFound(error)) return 'not_found';
        if (!(error instanceof IdentityCallError && error.status === 409)) throw error;
      }
      // Already linked (an earlier attempt, or an administrator): the same identity is success.
      const links = await call('list federated identities', () =>
        client.users.listFederatedIdentities({ id }),
      );
      const existing = links.find((l) => l.identityProvider === link.identityProvider);
      return existing?.userId === link.userId ? 'linked' : 'conflict';
    },
  };
}
