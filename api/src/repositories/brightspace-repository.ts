import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/driver';
import { type AuditActor, createAuditRepository } from './audit-repository';

/** An OAuth state is good for this long after it was started (checked when used). */
export const BRIGHTSPACE_STATE_TTL_SECONDS = 600;

/** What Valence `users/whoami` said about the Brightspace user. */
export interface BrightspaceUser {
  identifier: string;
  uniqueName: string;
  firstName: string;
  lastName: string;
}

export interface BrightspaceLink extends BrightspaceUser {
  linkedAt: string;
}

export const hashBrowserSecret = (secret: string) =>
  createHash('sha256').update(secret).digest('hex');

interface LinkRow {
  identifier: string;
  unique_name: string;
  first_name: string;
  last_name: string;
  linked_at: Date | string;
}

const toLink = (row: LinkRow): BrightspaceLink => ({
  identifier: row.identifier,
  uniqueName: row.unique_name,
  firstName: row.first_name,
  lastName: row.last_name,
  linkedAt: new Date(row.linked_at).toISOString(),
});

/** The user as the audit log names them: they link and reset their own Brightspace account. */
async function actorOf(db: Queryable, userId: string) {
  const res = await db.query<{
    first_name: string;
    last_name: string;
    email: string;
    organisation_id: number | null;
  }>('select first_name, last_name, email, organisation_id from users where id = $1', [userId]);
  const row = res.rows[0];
  if (!row) return null;
  const actor: AuditActor = {
    id: userId,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
  };
  return { actor, organisationId: row.organisation_id };
}

/**
 * Brightspace OAuth states and user links on a query handle: the pool for reads, a unit of work's
 * transaction for the writes (services/brightspace/), so a link and its audit entry commit together.
 */
export function createBrightspaceRepository(db: Queryable) {
  return {
    /**
     * A new state for `userId`, and the secret its browser keeps in a cookie: only the browser
     * that started the round trip can finish it, so a link someone else started cannot be
     * completed with the victim's Brightspace account.
     */
    async createState(userId: string, redirectPath: string) {
      const state = randomBytes(24).toString('base64url');
      const browserSecret = randomBytes(32).toString('base64url');
      // Expired states are of no use to anyone; clearing them here keeps the table small.
      await db.query(
        `delete from brightspace_oauth_states
          where created_at < now() - make_interval(secs => $1)`,
        [BRIGHTSPACE_STATE_TTL_SECONDS],
      );
      await db.query(
        `insert into brightspace_oauth_states (state, user_id, redirect_path, browser_hash)
         values ($1, $2, $3, $4)`,
        [state, userId, redirectPath, hashBrowserSecret(browserSecret)],
      );
      return { state, browserSecret };
    },

    /** An unused, unexpired state, without using it up (the authorization redirect). */
    async pendingState(state: string) {
      const res = await db.query<{ browser_hash: string }>(
        `select browser_hash from brightspace_oauth_states
          where state = $1 and used_at is null
            and created_at > now() - make_interval(secs => $2)`,
        [state, BRIGHTSPACE_STATE_TTL_SECONDS],
      );
      const row = res.rows[0];
      return row ? { browserHash: row.browser_hash } : null;
    },

    /** Uses the state up (the callback); null when unknown, used or expired. */
    async consumeState(state: string) {
      const res = await db.query<{ user_id: string; redirect_path: string; browser_hash: string }>(
        `update brightspace_oauth_states set used_at = now()
          where state = $1 and used_at is null
            and created_at > now() - make_interval(secs => $2)
          returning user_id, redirect_path, browser_hash`,
        [state, BRIGHTSPACE_STATE_TTL_SECONDS],
      );
      const row = res.rows[0];
      return row
        ? { userId: row.user_id, redirectPath: row.redirect_path, browserHash: row.browser_hash }
        : null;
    },

    async findLink(userId: string): Promise<BrightspaceLink | null> {
      const res = await db.query<LinkRow>(
        `select identifier, unique_name, first_name, last_name, linked_at
           from brightspace_user_links where user_id = $1`,
        [userId],
      );
      const row = res.rows[0];
      return row ? toLink(row) : null;
    },

    /** Links (or re-links) `userId` to the Brightspace user, with its audit entry; false when the user is gone. */
    async link(userId: string, user: BrightspaceUser): Promise<boolean> {
      const who = await actorOf(db, userId);
      if (!who) return false;
      const before = await db.query<LinkRow>(
        `select identifier, unique_name, first_name, last_name, linked_at
           from brightspace_user_links where user_id = $1 for update`,
        [userId],
      );
      const res = await db.query<LinkRow>(
        `insert into brightspace_user_links (user_id, identifier, unique_name, first_name, last_name)
         values ($1, $2, $3, $4, $5)
         on conflict (user_id) do update
           set identifier = excluded.identifier, unique_name = excluded.unique_name,
               first_name = excluded.first_name, last_name = excluded.last_name,
               linked_at = now()
         returning identifier, unique_name, first_name, last_name, linked_at`,
        [userId, user.identifier, user.uniqueName, user.firstName, user.lastName],
      );
      const previous = before.rows[0];
      await createAuditRepository(db).record({
        actor: who.actor,
        action: previous ? 'update' : 'create',
        entityType: 'brightspace_link',
        entityId: userId,
        organisationId: who.organisationId,
        before: previous ? toLink(previous) : null,
        after: toLink(res.rows[0]!),
      });
      return true;
    },

    /** Removes the link, with its audit entry; false when there was none. */
    async unlink(userId: string): Promise<boolean> {
      const res = await db.query<LinkRow>(
        `delete from brightspace_user_links where user_id = $1
         returning identifier, unique_name, first_name, last_name, linked_at`,
        [userId],
      );
      const removed = res.rows[0];
      if (!removed) return false;
      const who = await actorOf(db, userId);
      if (who) {
        await createAuditRepository(db).record({
          actor: who.actor,
          action: 'delete',
          entityType: 'brightspace_link',
          entityId: userId,
          organisationId: who.organisationId,
          before: toLink(removed),
          after: null,
        });
      }
      return true;
    },
  };
}
export type BrightspaceRepository = ReturnType<typeof createBrightspaceRepository>;
