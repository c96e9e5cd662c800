import type { Db } from '../db/driver';
import {
  createOutboxRepository,
  type ClaimedItem,
  type OutboxItem,
} from '../repositories/outbox-repository';
import { identitySubOf, setAccount } from '../repositories/user-repository';
import { IdentityCallError, toIdentityCallError, type IdentityAdmin } from './identity-admin';

/**
 * Accounts in the identity provider follow our users through the outbox (design §7): a route
 * writes its change and the outbox items in one transaction; this worker does the identity calls
 * afterwards, with retries, and records each finished step before the next, so that a crash
 * repeats at most the step it interrupted. Items of one user run in order (create, then update,
 * then delete).
 */
export const IDENTITY_KINDS = {
  create: 'identity.create_user',
  update: 'identity.update_user',
  remove: 'identity.delete_user',
  invite: 'identity.send_invitation',
} as const;

const keyOf = (userId: string) => `user:${userId}`;

interface AccountPayload {
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
 * `emailVerified: true` only for an e-mail its owner confirmed (email-change.ts); other updates
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

const UNKNOWN_OUTCOME = 'invitation outcome unknown (worker stopped while sending); not resent';

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

export interface ProvisioningLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Does one claimed item: marks it done (`outbox.complete`) or throws to have it retried. An error
 * with a numeric `retryAfterMs` (a server's Retry-After) waits at least that long.
 */
export type OutboxHandler = (item: ClaimedItem) => Promise<void>;

export interface OutboxWorkerOptions {
  db: Db;
  /** null: no identity provider configured; identity items stay queued until one is. */
  identityAdmin: IdentityAdmin | null;
  /** Handlers of other kinds (e.g. `lti.score`), by kind. */
  handlers?: Readonly<Record<string, OutboxHandler>>;
  log: ProvisioningLog;
  /** Items taken per round. */
  batchSize?: number;
  /** Identity calls in flight at once. */
  concurrency?: number;
  /** How long a worker owns an item it took; past it, another worker may take it over. */
  leaseMs?: number;
  /** Wait before the next attempt after `attempts` failed ones. */
  retryDelayMs?: (attempts: number) => number;
  /** After this many failed attempts a user's account shows `failed` (retries go on). */
  failedAfterAttempts?: number;
}

/** 2 s, 4 s, 8 s … up to 15 minutes, each ±20 % so that many failures do not retry in step. */
export function defaultRetryDelayMs(attempts: number): number {
  const base = Math.min(2 ** Math.min(attempts, 20) * 1000, 15 * 60_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export interface RoundResult {
  done: number;
  failed: number;
}

export function createOutboxWorker(options: OutboxWorkerOptions) {
  const { db, log } = options;
  // Used only by the identity handlers, which are registered only when it is set.
  const admin = options.identityAdmin as IdentityAdmin;
  const outbox = createOutboxRepository(db);
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 60_000;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const failedAfter = options.failedAfterAttempts ?? 3;

  async function subFromCreate(key: string): Promise<string | null> {
    const progress = (await outbox.progressOf(key, IDENTITY_KINDS.create)) as CreateProgress | null;
    return typeof progress?.sub === 'string' ? progress.sub : null;
  }

  async function userExists(id: string): Promise<boolean> {
    return (await db.query('select 1 from users where id = $1', [id])).rowCount > 0;
  }

  async function create(item: ClaimedItem): Promise<void> {
    const payload = item.payload as unknown as AccountPayload;
    let progress = { ...item.progress } as CreateProgress;

    if (typeof progress.sub !== 'string') {
      if (!(await userExists(payload.userId))) {
        // Deleted before the account was made. An account a crashed attempt may have made is
        // named here, so that the delete item after this one removes it.
        const found = await admin.findByEmail(payload.email);
        await outbox.complete(
          item.id,
          { ...(found ? { sub: found.id } : {}), skipped: true },
          'user deleted before the account was created',
        );
        return;
      }
      // Looked up first: an attempt that died after the provider created the account, before
      // the id was recorded, must not make a second one.
      const existing = await admin.findByEmail(payload.email);
      const sub =
        existing?.id ??
        (
          await admin.create({
            email: payload.email,
            firstName: payload.firstName,
            lastName: payload.lastName,
          })
        ).id;
      progress = { ...progress, sub };
      await db.transaction(async (tx) => {
        await outbox.saveProgress(tx, item.id, { ...progress });
        await setAccount(tx, payload.userId, { sub });
      });
    }
    const sub = progress.sub as string;
    const sent = await sendOnce(item, progress, sub);
    await finishCreate(
      item.id,
      payload.userId,
      { ...progress, invitation: sent === 'sent' ? 'sent' : 'sending' },
      sent === 'sent' ? null : UNKNOWN_OUTCOME,
    );
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
    await outbox.saveProgress(db, item.id, { ...progress, invitation: 'sending' });
    try {
      await admin.sendInvitation(sub);
    } catch (error) {
      const failed = toIdentityCallError(error, 'send invitation');
      // Refused or never reached: certainly not sent, so the next attempt may send it.
      if (failed.delivered === false) {
        await outbox.saveProgress(db, item.id, { ...progress, invitation: undefined });
      }
      throw failed;
    }
    return 'sent';
  }

  async function finishCreate(
    id: number,
    userId: string,
    progress: CreateProgress,
    note: string | null,
  ) {
    await db.transaction(async (tx) => {
      await setAccount(tx, userId, { status: 'invited' });
      await tx.query(
        `update outbox set done_at = now(), locked_until = null, progress = $2::jsonb, last_error = $3
          where id = $1`,
        [id, JSON.stringify(progress), note],
      );
    });
  }

  async function update(item: ClaimedItem): Promise<void> {
    const payload = item.payload as unknown as AccountPayload;
    const sub = (await identitySubOf(db, payload.userId)) ?? (await subFromCreate(item.key));
    if (!sub) {
      await outbox.complete(item.id, {}, 'no account to update');
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

  async function remove(item: ClaimedItem): Promise<void> {
    const payload = item.payload as { userId: string; sub: string | null };
    const sub = payload.sub ?? (await subFromCreate(item.key));
    if (!sub) {
      await outbox.complete(item.id, {}, 'no account was created');
      return;
    }
    const removed = await admin.remove(sub);
    await outbox.complete(item.id, { sub }, removed ? null : 'the account was already gone');
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
    const sub = (await identitySubOf(db, userId)) ?? (await subFromCreate(item.key));
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

  const handlers: Record<string, OutboxHandler> = {
    ...(options.identityAdmin
      ? {
          [IDENTITY_KINDS.create]: create,
          [IDENTITY_KINDS.update]: update,
          [IDENTITY_KINDS.remove]: remove,
          [IDENTITY_KINDS.invite]: invite,
        }
      : {}),
    ...options.handlers,
  };
  // Only kinds this worker can do are claimed: without an identity provider its items wait
  // (instead of failing over and over) while grades still go out.
  const kinds = Object.keys(handlers);

  async function process(item: ClaimedItem): Promise<boolean> {
    const handler = handlers[item.kind];
    try {
      if (!handler) throw new Error(`no handler for outbox kind ${item.kind}`);
      await handler(item);
      return true;
    } catch (error) {
      const message =
        error instanceof IdentityCallError || error instanceof Error
          ? error.message
          : String(error);
      const retryAfterMs = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
      const delay = Math.max(
        retryDelayMs(item.attempts),
        typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) ? retryAfterMs : 0,
      );
      log.warn(
        {
          outboxId: item.id,
          kind: item.kind,
          attempts: item.attempts,
          retryInMs: delay,
          err: message,
        },
        item.kind.startsWith('identity.')
          ? 'identity provisioning failed; will retry'
          : 'outbox item failed; will retry',
      );
      await outbox.fail(item.id, message, delay);
      const userId = (item.payload as { userId?: unknown }).userId;
      if (
        item.kind === IDENTITY_KINDS.create &&
        item.attempts >= failedAfter &&
        typeof userId === 'string'
      ) {
        await setAccount(db, userId, { status: 'failed' });
      }
      return false;
    }
  }

  /** Takes one batch of due items and does them; answers how they went. */
  async function runOnce(): Promise<RoundResult> {
    if (kinds.length === 0) return { done: 0, failed: 0 };
    const items = await outbox.claim(batchSize, leaseMs, kinds);
    const result: RoundResult = { done: 0, failed: 0 };
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const item = items[next++]!;
        if (await process(item)) result.done++;
        else result.failed++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
    return result;
  }

  /**
   * Rounds until a round gets nothing done: nothing is due, or all that is due keeps failing
   * (each failure waits for its retry time, so that is the timer's to pick up again).
   */
  async function drain(): Promise<RoundResult> {
    const total: RoundResult = { done: 0, failed: 0 };
    for (;;) {
      const round = await runOnce();
      total.done += round.done;
      total.failed += round.failed;
      if (round.done === 0) return total;
    }
  }

  return { runOnce, drain, outbox };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
