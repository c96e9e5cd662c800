import type { Db } from '../db/driver';
import type { OutboxKind, OutboxLog } from '../outbox/handler-registry';
import { createOutboxRepository, type ClaimedItem } from '../repositories/outbox-repository';
import { createUserRepository } from '../repositories/user-repository';
import { toIdentityCallError, type IdentityAdmin } from './identity-admin';
import { accountUsername, IDENTITY_KINDS, type AccountPayload } from './provisioning';

/**
 * The outbox kinds of identity accounts (provisioning.ts builds their items). Each handler records
 * every finished step before the next, so that a crash repeats at most the step it interrupted.
 */
export interface IdentityAccountKindsOptions {
  db: Db;
  identityAdmin: IdentityAdmin;
  log: Pick<OutboxLog, 'warn'>;
  /** After this many failed attempts a user's account shows `failed` (retries go on). */
  failedAfterAttempts?: number;
}

const UNKNOWN_OUTCOME = 'invitation outcome unknown (worker stopped while sending); not resent';
const RETRY_MESSAGE = 'identity provisioning failed; will retry';

/** Steps of a create item, kept in the item's `progress`. */
interface CreateProgress {
  /** The account exists with this id. */
  sub?: string;
  /**
   * `sending`: written just before the invitation call, `sent` after it. A `sending` found by a
   * later attempt means the worker died during the call: the e-mail may have gone, so it is not
   * sent again (nobody gets two invitations).
   */
  invitation?: 'sending' | 'sent';
  /** The user was deleted before their account was made: no invitation. */
  skipped?: boolean;
}

export function identityAccountKinds(
  options: IdentityAccountKindsOptions,
): Record<string, OutboxKind> {
  const { db, identityAdmin: admin, log } = options;
  const outbox = createOutboxRepository(db);
  const failedAfter = options.failedAfterAttempts ?? 3;

  async function subFromCreate(key: string): Promise<string | null> {
    const progress = (await outbox.progressOf(key, IDENTITY_KINDS.create)) as CreateProgress | null;
    return typeof progress?.sub === 'string' ? progress.sub : null;
  }

  async function userExists(id: string): Promise<boolean> {
    return (await db.query('select 1 from users where id = $1', [id])).rowCount > 0;
  }

  /** The account of this create: by e-mail when it has one, else by its derived username. */
  const findAccount = (payload: AccountPayload) =>
    payload.email !== null
      ? admin.findByEmail(payload.email)
      : admin.findByUsername(accountUsername(payload.userId, null));

  /**
   * A user who has an account already (a launched learner made without e-mail, given one now by
   * an administrator): that account takes the e-mail, no second one is made.
   */
  async function accountGivenEmail(payload: AccountPayload): Promise<string | null> {
    if (payload.email === null) return null;
    const sub = await createUserRepository(db).identitySubOf(payload.userId);
    if (!sub) return null;
    const updated = await admin.update(sub, {
      email: payload.email,
      firstName: payload.firstName,
      lastName: payload.lastName,
    });
    return updated ? sub : null;
  }

  async function create(item: ClaimedItem): Promise<void> {
    const payload = item.payload as unknown as AccountPayload;
    let progress = { ...item.progress } as CreateProgress;

    if (typeof progress.sub !== 'string') {
      if (!(await userExists(payload.userId))) {
        // Deleted before the account was made. An account a crashed attempt may have made is
        // named here, so that the delete item after this one removes it.
        const found = await findAccount(payload);
        await outbox.complete(
          item.id,
          { ...(found ? { sub: found.id } : {}), skipped: true },
          'user deleted before the account was created',
        );
        return;
      }
      // Looked up first: an attempt that died after the provider created the account, before
      // the id was recorded, must not make a second one.
      const names = { firstName: payload.firstName, lastName: payload.lastName };
      const existing = (await accountGivenEmail(payload)) ?? (await findAccount(payload))?.id;
      const sub =
        existing ??
        (
          await admin.create(
            payload.email === null
              ? { ...names, email: null, username: accountUsername(payload.userId, null) }
              : { ...names, email: payload.email },
            { launched: payload.launched === true },
          )
        ).id;
      progress = { ...progress, sub };
      await db.transaction(async (tx) => {
        await createOutboxRepository(tx).saveProgress(item.id, { ...progress });
        await createUserRepository(tx).setAccount(payload.userId, { sub });
      });
    }
    const sub = progress.sub as string;
    if (payload.email === null) {
      // Nowhere to send an invitation: the launched learner signs in by launch only.
      await outbox.complete(item.id, { ...progress }, null);
      return;
    }
    const sent = await sendOnce(item, progress, sub);
    await db.transaction(async (tx) => {
      await createUserRepository(tx).setAccount(payload.userId, { status: 'invited' });
      await createOutboxRepository(tx).complete(
        item.id,
        { ...progress, invitation: sent === 'sent' ? 'sent' : 'sending' },
        sent === 'sent' ? null : UNKNOWN_OUTCOME,
      );
    });
  }

  /**
   * Sends the invitation of an item unless an earlier attempt may have sent it: `sending` is
   * saved before the call and cleared only when the call certainly did not arrive, so an attempt
   * that finds it does not send again (nobody gets two e-mails for one request). Throws when the
   * call failed; the item is retried.
   */
  async function sendOnce(
    item: ClaimedItem,
    progress: CreateProgress,
    sub: string,
  ): Promise<'sent' | 'unknown'> {
    if (progress.invitation === 'sending') {
      log.warn(
        { userId: (item.payload as { userId?: unknown }).userId, outboxId: item.id },
        'the worker stopped while sending this invitation; it is not sent again',
      );
      return 'unknown';
    }
    if (progress.invitation === 'sent') return 'sent';
    await outbox.saveProgress(item.id, { ...progress, invitation: 'sending' });
    try {
      await admin.sendInvitation(sub);
    } catch (error) {
      const failed = toIdentityCallError(error, 'send invitation');
      // Refused or never reached: certainly not sent, so the next attempt may send it.
      if (failed.delivered === false) {
        await outbox.saveProgress(item.id, { ...progress, invitation: undefined });
      }
      throw failed;
    }
    return 'sent';
  }

  async function update(item: ClaimedItem): Promise<void> {
    const payload = item.payload as unknown as AccountPayload;
    const sub =
      (await createUserRepository(db).identitySubOf(payload.userId)) ??
      (await subFromCreate(item.key));
    if (!sub || payload.email === null) {
      // Update items are made only for users with an e-mail (services/user/update-user.ts).
      await outbox.complete(item.id, {}, sub ? 'no e-mail to update' : 'no account to update');
      return;
    }
    const updated = await admin.update(sub, {
      email: payload.email,
      firstName: payload.firstName,
      lastName: payload.lastName,
      ...(payload.emailVerified === true ? { emailVerified: true } : {}),
    });
    await outbox.complete(item.id, { sub }, updated ? null : 'the account no longer exists');
  }

  /**
   * The account of a launched user without e-mail whose id the portal does not know (its create
   * item gone, or the user's own id standing in for it, as for every active user without one):
   * its username is derived from the portal user's id, so it is theirs alone. An e-mail is not
   * looked up the same way, since another account may hold that address by now.
   */
  async function launchedAccountOf(payload: { userId: string; email?: string | null }) {
    if (payload.email !== null) return null;
    return (await admin.findByUsername(accountUsername(payload.userId, null)))?.id ?? null;
  }

  async function remove(item: ClaimedItem): Promise<void> {
    const payload = item.payload as { userId: string; email?: string | null; sub: string | null };
    const sub = payload.sub ?? (await subFromCreate(item.key));
    if (sub && (await admin.remove(sub))) {
      await outbox.complete(item.id, { sub }, null);
      return;
    }
    const launched = await launchedAccountOf(payload);
    if (launched && (await admin.remove(launched))) {
      await outbox.complete(item.id, { sub: launched }, null);
      return;
    }
    await outbox.complete(
      item.id,
      sub ? { sub } : {},
      sub ? 'the account was already gone' : 'no account was created',
    );
  }

  /** The invitation again, for a user still `invited`; one who signed in meanwhile gets none. */
  async function invite(item: ClaimedItem): Promise<void> {
    const { userId } = item.payload as { userId: string };
    const res = await db.query<{ status: string }>(
      'select account_status as status from users where id = $1',
      [userId],
    );
    const status = res.rows[0]?.status;
    if (status === undefined) {
      await outbox.complete(item.id, {}, 'user deleted; no invitation');
      return;
    }
    if (status === 'active') {
      await outbox.complete(item.id, {}, 'the user has signed in; no invitation');
      return;
    }
    const sub =
      (await createUserRepository(db).identitySubOf(userId)) ?? (await subFromCreate(item.key));
    if (!sub) {
      await outbox.complete(item.id, {}, 'no account to invite');
      return;
    }
    const progress = { ...item.progress } as CreateProgress;
    const sent = await sendOnce(item, progress, sub);
    await outbox.complete(
      item.id,
      { ...progress, sub, invitation: sent === 'sent' ? 'sent' : 'sending' },
      sent === 'sent' ? null : UNKNOWN_OUTCOME,
    );
  }

  /**
   * Links the account to the launch sign-in broker (issue #22 point 1), once its create item has
   * named it; remembered in lti_broker_account_links so later launches do not ask again.
   */
  async function linkBroker(item: ClaimedItem): Promise<void> {
    const { userId, alias } = item.payload as { userId: string; alias: string };
    const sub =
      (await createUserRepository(db).identitySubOf(userId)) ?? (await subFromCreate(item.key));
    if (!sub || !(await userExists(userId))) {
      await outbox.complete(item.id, {}, 'no account to link');
      return;
    }
    const result = await admin.linkFederatedIdentity(sub, {
      identityProvider: alias,
      userId,
      userName: userId,
    });
    if (result === 'linked') {
      await db.query(
        `insert into lti_broker_account_links (user_id, alias) values ($1, $2)
         on conflict (user_id) do update set alias = excluded.alias, linked_at = now()`,
        [userId, alias],
      );
    }
    await outbox.complete(
      item.id,
      { sub },
      result === 'linked'
        ? null
        : result === 'not_found'
          ? 'the account no longer exists'
          : 'the account is linked to another identity of this provider',
    );
  }

  /** A create that keeps failing shows on the user's row; its retries go on. */
  async function markFailed(item: ClaimedItem): Promise<void> {
    const userId = (item.payload as { userId?: unknown }).userId;
    if (item.attempts >= failedAfter && typeof userId === 'string') {
      await createUserRepository(db).setAccount(userId, { status: 'failed' });
    }
  }

  return {
    [IDENTITY_KINDS.create]: {
      handle: create,
      retryMessage: RETRY_MESSAGE,
      afterFailure: markFailed,
    },
    [IDENTITY_KINDS.update]: { handle: update, retryMessage: RETRY_MESSAGE },
    [IDENTITY_KINDS.remove]: { handle: remove, retryMessage: RETRY_MESSAGE },
    [IDENTITY_KINDS.invite]: { handle: invite, retryMessage: RETRY_MESSAGE },
    [IDENTITY_KINDS.linkBroker]: { handle: linkBroker, retryMessage: RETRY_MESSAGE },
  };
}
