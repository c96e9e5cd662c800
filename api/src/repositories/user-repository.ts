import type { CookiePreference, CurrentUser, UserPreference } from '@portal/contract';
import type { Db } from '../db/driver';

/** The signed-in user as the API knows them: our row plus the permissions of their role. */
export type AuthUser = CurrentUser;

interface AuthUserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  language: string;
  role_name: string;
  organisation_id: number | null;
  organisation_name: string | null;
  is_brightspace_auth_required: boolean;
  brightspace_user_mismatch: boolean;
  permissions: string[] | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How long the auth hook may reuse a user it loaded. Every learner polls whoami and the session
 * status every second, and loading the user with their permissions is the costliest query of
 * either request (~1 ms of PGlite, see api/bench): reusing it for a few seconds takes most of
 * that off the polled routes. A change made by another API process, or straight in SQL, shows
 * within this time; changes through this repository show at once (see `forget`).
 */
export const AUTH_USER_TTL_MS = 5_000;
/** Bounds memory: at most this many users are held; the oldest entry makes room. */
export const AUTH_USER_CACHE_SIZE = 10_000;

export function createUserRepository(db: Db, options: { authUserTtlMs?: number } = {}) {
  const ttlMs = options.authUserTtlMs ?? AUTH_USER_TTL_MS;
  const cache = new Map<string, { user: AuthUser; expires: number }>();
  // Bumped by every write, before and after it: a lookup that overlapped a write must not store
  // what it may have read before the write.
  let generation = 0;
  const forget = (id: string) => {
    generation++;
    cache.delete(id);
  };

  const repository = {
    /** null when no user has this id (or the id is not even a UUID). Always reads the database. */
    async findAuthUser(id: string): Promise<AuthUser | null> {
      if (!UUID.test(id)) return null;
      const res = await db.query<AuthUserRow>(
        `select u.id, u.email, u.first_name, u.last_name, u.language, r.name as role_name,
                u.organisation_id, o.name as organisation_name,
                u.is_brightspace_auth_required, u.brightspace_user_mismatch,
                array(select p.codename from role_permissions rp
                        join permissions p on p.id = rp.permission_id
                       where rp.role_id = u.role_id order by p.codename) as permissions
           from users u
           join roles r on r.id = u.role_id
           left join organisations o on o.id = u.organisation_id
          where u.id = $1`,
        [id],
      );
      const row = res.rows[0];
      if (!row) return null;
      return {
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        language: row.language,
        roleName: row.role_name,
        organisationId: row.organisation_id,
        organisationName: row.organisation_name,
        isBrightspaceAuthRequired: row.is_brightspace_auth_required,
        brightspaceUserMismatch: row.brightspace_user_mismatch,
        permissions: row.permissions ?? [],
      };
    },

    /**
     * `findAuthUser` for the auth hook, reused for up to AUTH_USER_TTL_MS. Frozen, because every
     * request of that user shares the object. Unknown users are not remembered, so a user
     * registered a moment ago can sign in at once.
     */
    async cachedAuthUser(id: string): Promise<AuthUser | null> {
      const now = Date.now();
      const hit = cache.get(id);
      if (hit && hit.expires > now) return hit.user;
      const seen = generation;
      const user = await repository.findAuthUser(id);
      cache.delete(id);
      if (user && ttlMs > 0 && seen === generation) {
        if (cache.size >= AUTH_USER_CACHE_SIZE) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        Object.freeze(user.permissions);
        cache.set(id, { user: Object.freeze(user), expires: now + ttlMs });
      }
      return user;
    },

    async getCookiePreference(id: string): Promise<CookiePreference | null> {
      const res = await db.query<{ allow: boolean | null }>(
        'select allow_essential_cookies as allow from users where id = $1',
        [id],
      );
      const row = res.rows[0];
      // Never answered counts as "not allowed", so the consent dialog opens.
      return row ? { allowEssentialCookies: row.allow ?? false } : null;
    },

    async setCookiePreference(
      id: string,
      pref: CookiePreference,
    ): Promise<CookiePreference | null> {
      const res = await db.query<{ allow: boolean }>(
        `update users set allow_essential_cookies = $2, updated_at = now()
          where id = $1 returning allow_essential_cookies as allow`,
        [id, pref.allowEssentialCookies],
      );
      const row = res.rows[0];
      return row ? { allowEssentialCookies: row.allow } : null;
    },

    async getPreference(id: string): Promise<UserPreference | null> {
      const res = await db.query<{ language: string; skin_tone_id: number | null }>(
        'select language, skin_tone_id from users where id = $1',
        [id],
      );
      const row = res.rows[0];
      return row ? { language: row.language, skinTone: row.skin_tone_id } : null;
    },

    async setPreference(id: string, pref: UserPreference): Promise<UserPreference | null> {
      // The language is part of the signed-in user: whoami must show the new one at once.
      forget(id);
      const res = await db.query<{ language: string; skin_tone_id: number | null }>(
        `update users set language = $2, skin_tone_id = $3, updated_at = now()
          where id = $1 returning language, skin_tone_id`,
        [id, pref.language, pref.skinTone],
      );
      forget(id);
      const row = res.rows[0];
      return row ? { language: row.language, skinTone: row.skin_tone_id } : null;
    },
  };
  return repository;
}

export type UserRepository = ReturnType<typeof createUserRepository>;
