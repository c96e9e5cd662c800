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
} as const;

const keyOf = (userId: string) => `user:${userId}`;

export interface AccountPayload {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Only an update after the new address confirmed it sets this (to true). */
  emailVerified?: boolean;
}

type AccountUser = { id: string } & Omit<AccountPayload, 'userId' | 'emailVerified'>;

/** The account's fields as they are now, for a create or an update of `kind`. */
const accountItem = (
  kind: string,
  user: AccountUser,
  extra: Pick<AccountPayload, 'emailVerified'> = {},
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
  email: string;
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
