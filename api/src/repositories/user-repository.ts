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

export function createUserRepository(db: Db) {
  return {
    /** null when no user has this id (or the id is not even a UUID). */
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
      const res = await db.query<{ language: string; skin_tone_id: number | null }>(
        `update users set language = $2, skin_tone_id = $3, updated_at = now()
          where id = $1 returning language, skin_tone_id`,
        [id, pref.language, pref.skinTone],
      );
      const row = res.rows[0];
      return row ? { language: row.language, skinTone: row.skin_tone_id } : null;
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
