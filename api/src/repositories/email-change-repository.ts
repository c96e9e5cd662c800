import { createHash } from 'node:crypto';
import { EMAIL_CHANGE_TTL_HOURS } from '@portal/contract';
import type { Queryable } from '../db/driver';

/** The table keeps only the SHA-256 of a link's token; the token exists only in the mail. */
const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** A pending (or used, or expired) e-mail change as its link finds it. */
export interface EmailChangeRow {
  user_id: string;
  new_email: string;
  expires_at: Date | string;
  confirmed_at: Date | string | null;
  expired: boolean;
}

/** `email_changes`: at most one pending change per user (issue #20). */
export function createEmailChangeRepository(db: Queryable) {
  return {
    /**
     * Records `newEmail` as the user's pending e-mail under `token`, replacing any earlier
     * pending change (whose link stops working). Answers the user's language for the mails.
     */
    async replacePending(input: {
      userId: string;
      newEmail: string;
      token: string;
      requestedBy: string | null;
    }): Promise<string | null> {
      const res = await db.query<{ language: string }>(
        `with upsert as (
           insert into email_changes (user_id, new_email, token_hash, expires_at, requested_by)
           values ($1, $2, $3, now() + $4::integer * interval '1 hour', $5)
           on conflict (user_id) do update
             set new_email = excluded.new_email, token_hash = excluded.token_hash,
                 expires_at = excluded.expires_at, requested_by = excluded.requested_by,
                 created_at = now(), confirmed_at = null
           returning user_id)
         select u.language from users u join upsert on upsert.user_id = u.id`,
        [
          input.userId,
          input.newEmail,
          hashOf(input.token),
          EMAIL_CHANGE_TTL_HOURS,
          input.requestedBy,
        ],
      );
      return res.rows[0]?.language ?? null;
    },

    /** Drops the change of `token` if it is still pending (a newer one is left alone). */
    async withdraw(token: string): Promise<void> {
      await db.query('delete from email_changes where token_hash = $1 and confirmed_at is null', [
        hashOf(token),
      ]);
    },

    /** Drops the user's live pending change; answers its new e-mail, or null when none. */
    async cancelPending(userId: string): Promise<string | null> {
      const res = await db.query<{ new_email: string }>(
        `delete from email_changes
          where user_id = $1 and confirmed_at is null and expires_at > now()
          returning new_email`,
        [userId],
      );
      return res.rows[0]?.new_email ?? null;
    },

    /** The change a link's token names, locked until the transaction ends when `lock`. */
    async findByToken(token: string, lock: boolean): Promise<EmailChangeRow | null> {
      const res = await db.query<EmailChangeRow>(
        `select user_id::text, new_email, expires_at, confirmed_at, expires_at <= now() as expired
           from email_changes where token_hash = $1${lock ? ' for update' : ''}`,
        [hashOf(token)],
      );
      return res.rows[0] ?? null;
    },

    async markConfirmed(userId: string): Promise<void> {
      await db.query('update email_changes set confirmed_at = now() where user_id = $1', [userId]);
    },
  };
}

export type EmailChangeRepository = ReturnType<typeof createEmailChangeRepository>;
