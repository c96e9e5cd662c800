import type { OutboxItem } from '../repositories/outbox-repository';

/**
 * Accounts in the identity provider follow our users through the outbox (docs/decisions.md#outbox): a route
 * writes its change and the outbox items built here in one transaction; the outbox worker does the
 * identity calls afterwards with the handlers in account-handlers.ts. Items of one user share a
 * key, so they run in order (create, then update, then delete).
 */
export const IDENTITY_KINDS = {
  create: 'identity.create_user',
  update: 'identity.update_user',
  remove: 'identity.delete_user',
  invite: 'identity.send_invitation',
  /** The account's link to the launch sign-in broker (Keycloak federated identity). */
  linkBroker: 'identity.link_broker',
} as const;

const keyOf = (userId: string) => `user:${userId}`;

/**
 * The account's username: the e-mail (everyone signs in by it), else one derived from the portal
 * user's id, stable across retries (the realm has registrationEmailAsUsername off for these).
 */
export const accountUsername = (userId: string, email: string | null): string =>
  email ?? `lti-${userId}`;

export interface AccountPayload {
  userId: string;
  /** null for a user a launch made without one: their account has `lti-<id>` as username. */
  email: string | null;
  firstName: string;
  lastName: string;
  /** Only an update after the new address confirmed it sets this (to true). */
  emailVerified?: boolean;
  /**
   * A create for a user a learning platform's launch made: they sign in by launch (identity
   * brokering), so the account asks for no password; the invitation still can.
   */
  launched?: boolean;
}

type AccountUser = { id: string } & Omit<AccountPayload, 'userId' | 'emailVerified' | 'launched'>;

/** The account's fields as they are now, for a create or an update of `kind`. */
const accountItem = (
  kind: string,
  user: AccountUser,
  extra: Pick<AccountPayload, 'emailVerified' | 'launched'> = {},
): OutboxItem => ({
  kind,
  key: keyOf(user.id),
  payload: {
    userId: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    ...extra,
  },
});

export const createAccountItem = (user: AccountUser) => accountItem(IDENTITY_KINDS.create, user);
/** The account of a user a launch created: no required actions (provisioning.ts `launched`). */
export const createLaunchedAccountItem = (user: AccountUser) =>
  accountItem(IDENTITY_KINDS.create, user, { launched: true });
/**
 * `emailVerified: true` only for an e-mail its owner confirmed (services/email-change/confirm-email-change.ts); other updates
 * leave the flag as the provider has it.
 */
export const updateAccountItem = (
  user: AccountUser,
  extra?: Pick<AccountPayload, 'emailVerified'>,
) => accountItem(IDENTITY_KINDS.update, user, extra);

/** `sub`: the account's id when known now; otherwise the create item's progress names it. */
export function deleteAccountItem(user: {
  id: string;
  email: string | null;
  sub: string | null;
}): OutboxItem {
  return {
    kind: IDENTITY_KINDS.remove,
    key: keyOf(user.id),
    payload: { userId: user.id, email: user.email, sub: user.sub },
  };
}

/** The invitation once more (POST /user/{id}/invitation), after any create or update before it. */
export function invitationItem(user: { id: string }): OutboxItem {
  return { kind: IDENTITY_KINDS.invite, key: keyOf(user.id), payload: { userId: user.id } };
}

/**
 * The account's federated identity link to the launch sign-in broker, after any create before
 * it (same key): the broker's subject is the portal user's id.
 */
export function brokerLinkItem(user: { id: string }, alias: string): OutboxItem {
  return { kind: IDENTITY_KINDS.linkBroker, key: keyOf(user.id), payload: { userId: user.id, alias } };
}
