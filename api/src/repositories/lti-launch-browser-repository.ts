import { createHash, randomBytes } from 'node:crypto';
import { isUuid } from '@portal/contract';
import type { Queryable } from '../db/driver';

/** How long a launch page may ask for a new-window ticket after its launch. */
export const FRAME_KEY_SECONDS = 600;
/** A new-window ticket's life: long enough to press the button, short enough to be worthless later. */
export const LAUNCH_TICKET_SECONDS = 120;

const secret = () => randomBytes(32).toString('base64url');
const digest = (value: string) => createHash('sha256').update(value).digest('base64url');


/**
 * The launch's browser binding and its "Open in a new window" tickets (migration 0029). Secrets
 * are handed out once and stored as SHA-256 digests only.
 */
export function createLtiLaunchBrowserRepository(q: Queryable) {
  return {
    /** A new binding for a launch just recorded: the cookie's secret and the launch page's key. */
    async bind(launchId: string): Promise<{ cookie: string; frameKey: string }> {
      const cookie = secret();
      const frameKey = secret();
      await q.query(
        `insert into lti_launch_browsers (launch_id, cookie_hash, frame_key_hash)
         values ($1::uuid, $2, $3)`,
        [launchId, digest(cookie), digest(frameKey)],
      );
      return { cookie, frameKey };
    },

    /** Whether `cookie` is the one bound to the launch now. */
    async holds(launchId: string, cookie: string | null): Promise<boolean> {
      if (cookie === null || !isUuid(launchId)) return false;
      const res = await q.query(
        'select 1 from lti_launch_browsers where launch_id = $1::uuid and cookie_hash = $2',
        [launchId, digest(cookie)],
      );
      return res.rowCount > 0;
    },

    /**
     * A ticket for the launch when `frameKey` is its launch page's and still fresh; null otherwise.
     * Expired tickets are swept on the way.
     */
    async issueTicket(launchId: string, frameKey: string): Promise<string | null> {
      if (!isUuid(launchId)) return null;
      const known = await q.query(
        `select 1 from lti_launch_browsers
          where launch_id = $1::uuid and frame_key_hash = $2
            and created_at > now() - make_interval(secs => $3)`,
        [launchId, digest(frameKey), FRAME_KEY_SECONDS],
      );
      if (known.rowCount === 0) return null;
      await q.query('delete from lti_launch_tickets where expires_at < now()');
      const ticket = secret();
      await q.query(
        `insert into lti_launch_tickets (ticket_hash, launch_id, expires_at)
         values ($1, $2::uuid, now() + make_interval(secs => $3))`,
        [digest(ticket), launchId, LAUNCH_TICKET_SECONDS],
      );
      return ticket;
    },

    /**
     * Spends the ticket (one statement: of two racing redeems, one wins) and binds the redeeming
     * browser instead of the frame's: answers the launch and the new cookie's secret, or null for
     * a ticket unknown, used or expired.
     */
    async redeemTicket(
      ticket: string,
    ): Promise<{ launchId: string; cookie: string; custom: Record<string, string> } | null> {
      const res = await q.query<{ launch_id: string; custom: Record<string, string> | null }>(
        `with spent as (
           update lti_launch_tickets set used_at = now()
            where ticket_hash = $1 and used_at is null and expires_at > now()
            returning launch_id)
         select l.id::text as launch_id, l.custom from spent join lti_launches l on l.id = spent.launch_id`,
        [digest(ticket)],
      );
      const row = res.rows[0];
      if (row === undefined) return null;
      const launchId = row.launch_id;
      const cookie = secret();
      await q.query('update lti_launch_browsers set cookie_hash = $2 where launch_id = $1::uuid', [
        launchId,
        digest(cookie),
      ]);
      return { launchId, cookie, custom: row.custom ?? {} };
    },
  };
}

export type LtiLaunchBrowserRepository = ReturnType<typeof createLtiLaunchBrowserRepository>;
