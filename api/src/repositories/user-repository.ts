import type { CookiePreference, CurrentUser, UserPreference } from '@portal/contract';
import { isUuid } from '@portal/contract';
import type {
  AccountStatus,
  AdminUser,
  LicensedUser,
  PlatformUser,
  UserListQuery,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { pagedList } from '../lib/paged-list';
import { LOOKUP_SEED } from '../reference/reference-data';
import { prepared } from '../db/prepared';

/**
 * The signed-in user as the API knows them: our row plus the permissions of their role, and
 * whether their organisation is active (false: the auth hook refuses them). Routes answer the
 * CurrentUser part; the flag stays inside the API.
 */
export type AuthUser = CurrentUser & { organisationActive: boolean };

interface AuthUserRow {
  id: string;
  email: string | null;
  first_name: string;
  last_name: string;
  language: string;
  role_name: string;
  organisation_id: number | null;
  organisation_name: string | null;
  is_brightspace_auth_required: boolean | null;
  brightspace_user_mismatch: boolean | null;
  permissions: string[] | null;
  account_status: AccountStatus;
  organisation_active: boolean | null;
}

/**
 * Roles that must sign in to Brightspace when their organisation uses it: the ones who work in
 * its courses. Administrators run the portal, often without a Brightspace account of the
 * organisation (a system administrator has no organisation at all); sending them through an
 * OAuth round trip they cannot finish would lock them out of the administration.
 */
export const BRIGHTSPACE_ROLES = ['learner', 'educator'] as const;

export interface UserRepositoryOptions {
  /** Brightspace OAuth is configured (config.brightspace); otherwise the flags are false. */
  brightspace?: boolean;
}

/** The Brightspace entry of the organisations' LMS lookup (the seed fixes lookup ids). */
const BRIGHTSPACE_LMS_ID = LOOKUP_SEED.find(
  (l) => l.field === 'learning_management_system' && l.code === 'brightspace',
)!.id;

/**
 * The Brightspace flags (issue #10 point 6), in the same round trip: whoami is polled every
 * second and measured (issue #11). Scalar subqueries rather than joins: planning a query costs
 * more than running it here (PGlite plans every call), and each join adds to that. The link's
 * primary key and lti_launches_user_idx find what they read. Without Brightspace configured the
 * flags are constants and the query is what it was before them. A launch's user is D2L's
 * `user_id` from its own claim when the launch had it (real D2L's LTI `sub` is another, opaque
 * id), else its `sub` (migration 0019).
 */
const BRIGHTSPACE_FLAGS = `
  (o.learning_management_system_id = $4 and r.name = any($3::text[])
    and not exists (select 1 from brightspace_user_links bl where bl.user_id = u.id))
    as is_brightspace_auth_required,
  (o.learning_management_system_id = $4
    and (select bl.identifier from brightspace_user_links bl where bl.user_id = u.id)
      <> (select coalesce(l.brightspace_user_id, l.platform_sub) from lti_launches l
            join lti_platforms lp on lp.id = l.platform_id
           where l.user_id = u.id and lp.organisation_id = u.organisation_id
           order by l.created_at desc limit 1))
    as brightspace_user_mismatch,`;
const NO_BRIGHTSPACE_FLAGS = `
  false as is_brightspace_auth_required, false as brightspace_user_mismatch,`;

/**
 * Reads nothing against the clock (no now(), no expiry): on PostgreSQL the auth cache keeps what
 * this finds for 5 minutes and relies on change notices for every change, and a field that
 * changes with time alone sends none (plugins/app/auth-user-cache.ts, AUTH_USER_TTL_NOTICED_MS).
 */
const authUserQuery = (flags: string) =>
  `select u.id, u.email, u.first_name, u.last_name, u.language, r.name as role_name,
          u.organisation_id, o.name as organisation_name, o.is_active as organisation_active,
          u.account_status, ${flags}
          array(select p.codename from role_permissions rp
                  join permissions p on p.id = rp.permission_id
                 where rp.role_id = u.role_id order by p.codename) as permissions
     from users u
     join roles r on r.id = u.role_id
     left join organisations o on o.id = u.organisation_id
    where u.identity_sub = $1
       or (u.identity_sub is null and u.account_status = 'active' and u.id = $2::uuid)`;

export function createUserRepository(db: Queryable, options: UserRepositoryOptions = {}) {
  const brightspace = options.brightspace ?? false;
  const authUserSql = prepared(
    authUserQuery(brightspace ? BRIGHTSPACE_FLAGS : NO_BRIGHTSPACE_FLAGS),
  );

  const repository = {
    /**
     * The user a token's `sub` names, or null. Accounts created through the identity provider's
     * admin API carry the provider's id in `identity_sub`; demo and older accounts have id = sub.
     * Always reads the database.
     */
    async findAuthUser(sub: string): Promise<AuthUser | null> {
      if (sub === '' || sub.length > 255) return null;
      const res = await db.query<AuthUserRow>(
        authUserSql,
        brightspace
          ? [sub, isUuid(sub) ? sub : null, [...BRIGHTSPACE_ROLES], BRIGHTSPACE_LMS_ID]
          : [sub, isUuid(sub) ? sub : null],
      );
      const row = res.rows[0];
      if (!row) return null;
      // Only an account made through the provider's admin API can be anything but active, and
      // only its own `sub` finds it (the where clause above): this is its first sign-in.
      if (row.account_status !== 'active') await activateAccount(db, sub);
      return {
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        language: row.language,
        roleName: row.role_name,
        organisationId: row.organisation_id,
        organisationName: row.organisation_name,
        isBrightspaceAuthRequired: row.is_brightspace_auth_required === true,
        brightspaceUserMismatch: row.brightspace_user_mismatch === true,
        permissions: row.permissions ?? [],
        // A user without an organisation (a global administrator) has none to be deactivated.
        organisationActive: row.organisation_active !== false,
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

    /** An organisation's users, one page (GET /organisation/{id}/user). */
    listForOrganisation(organisationId: number, query: UserListQuery) {
      return pagedList<UserRow, AdminUser>(db, query, {
        from: `users u join roles r on r.id = u.role_id
               left join organisations o on o.id = u.organisation_id
               ${USER_PLATFORM_JOIN}`,
        select: USER_SELECT,
        where: { sql: 'u.organisation_id = $1', params: [organisationId] },
        sortable: {
          fullName: "lower(u.first_name || ' ' || u.last_name)",
          firstName: 'lower(u.first_name)',
          lastName: 'lower(u.last_name)',
          email: 'lower(u.email)',
          roleName: 'r.name',
          accountStatus: 'u.account_status',
        },
        searchable: [
          'u.first_name',
          'u.last_name',
          "u.first_name || ' ' || u.last_name",
          'u.email',
          'k.platform_sub',
        ],
        defaultOrdering: 'lastName,firstName',
        tieBreaker: 'u.id',
        map: toAdminUser,
      });
    },

    /** One user as administrators see them, or null (also for an id that is no UUID). */
    async findAdminUser(id: string): Promise<AdminUser | null> {
      if (!isUuid(id)) return null;
      const res = await db.query<UserRow>(
        `select ${USER_SELECT}
           from users u join roles r on r.id = u.role_id
           left join organisations o on o.id = u.organisation_id
           ${USER_PLATFORM_JOIN}
          where u.id = $1`,
        [id],
      );
      const row = res.rows[0];
      return row ? toAdminUser(row) : null;
    },

    async findRole(id: number): Promise<RoleInfo | null> {
      const res = await db.query<{ id: number; name: string; is_global: boolean }>(
        `select r.id, r.name, ${GLOBAL_ROLE_SQL('r.id')} as is_global from roles r where r.id = $1`,
        [id],
      );
      const row = res.rows[0];
      return row ? { id: row.id, name: row.name, isGlobal: row.is_global } : null;
    },

    /**
     * The global administrators, locked until the transaction ends: two administrators removing
     * each other at the same time queue here, and the second sees the first one's change.
     */
    async lockGlobalAdmins(): Promise<string[]> {
      const res = await db.query<{ id: string }>(
        `select u.id::text as id from users u where ${GLOBAL_ROLE_SQL('u.role_id')}
          order by u.id for update of u`,
      );
      return res.rows.map((r) => r.id);
    },

    /** Which of these e-mails (lower-case) a user already has. */
    emailsInUse: (emails: readonly string[]) => emailsInUse(db, emails),

    /** One statement for the whole list: a bulk add of 10 000 rows is one round trip. */
    insertUsers: (
      users: readonly NewUserRow[],
      organisationId: number,
      roleId: number,
      language: string,
    ) => insertUsers(db, users, organisationId, roleId, language),

    /** The e-mail is not written here: it changes only when the new address confirms it. */
    async updateNamesAndRole(
      id: string,
      change: { firstName: string; lastName: string; roleId: number },
    ): Promise<void> {
      await db.query(
        `update users set first_name = $2, last_name = $3, role_id = $4, updated_at = now()
          where id = $1`,
        [id, change.firstName, change.lastName, change.roleId],
      );
    },

    /**
     * Writes a confirmed new e-mail. Throws the unique violation (23505, users_email_key) when
     * another user took the address meanwhile.
     */
    async setEmail(id: string, email: string): Promise<void> {
      await db.query('update users set email = $2, updated_at = now() where id = $1', [id, email]);
    },

    /**
     * The first address of a user from a learning platform that sent none: their identity
     * account is made now (the caller queues it), so the account is being provisioned again.
     */
    async addFirstEmail(id: string, email: string): Promise<void> {
      await db.query(
        `update users set email = $2, account_status = 'provisioning', updated_at = now()
          where id = $1 and email is null`,
        [id, email],
      );
    },

    /** Seats go with the user (cascade), and the seat counts follow (migration 0005). */
    async remove(id: string): Promise<boolean> {
      const res = await db.query('delete from users where id = $1', [id]);
      return res.rowCount > 0;
    },

    /** The account's status, its row locked until the transaction ends; undefined: no such user. */
    async lockAccountStatus(id: string): Promise<AccountStatus | undefined> {
      const res = await db.query<{ status: AccountStatus }>(
        'select account_status as status from users where id = $1 for update',
        [id],
      );
      return res.rows[0]?.status;
    },

    /**
     * When the invitation item `key` still on its way (or done within `minutes`) was queued, or
     * null: a resend within that time answers the one already sent.
     */
    async invitationQueuedAt(key: string, kind: string, minutes: number): Promise<string | null> {
      const res = await db.query<{ at: Date | string }>(
        `select created_at as at from outbox
          where key = $1 and kind = $2
            and (done_at is null or created_at > now() - $3::integer * interval '1 minute')
          order by id desc limit 1`,
        [key, kind, minutes],
      );
      const row = res.rows[0];
      return row ? new Date(row.at).toISOString() : null;
    },

    /** The database's time of the transaction: what `created_at` of its writes will say. */
    async transactionTime(): Promise<string> {
      const res = await db.query<{ at: Date | string }>('select now() as at');
      return new Date(res.rows[0]!.at).toISOString();
    },

    identitySubOf: (id: string) => identitySubOf(db, id),
    setAccount: (id: string, change: AccountChange) => setAccount(db, id, change),
  };
  return repository;
}

export type UserRepository = ReturnType<typeof createUserRepository>;

/** The columns of USER_SELECT. */
export interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  role_id: number;
  role_name: string;
  license_names: string[] | null;
  organisation_id: number | null;
  organisation_name: string | null;
  skin_tone_id: number | null;
  account_status: AccountStatus;
  pending_email: string | null;
  platform_issuer: string | null;
  platform_sub: string | null;
}

/**
 * The select list of a user as the administration lists show them (`u` users, `r` their role,
 * `o` their organisation): one for the organisation's users, a licence's seat holders and one
 * user. Licence names are those of the licences the user holds a seat of, which are always their
 * own organisation's (assignUsers admits only its members).
 */
export const USER_SELECT = `u.id::text as id, u.first_name, u.last_name, u.email, u.role_id,
  r.name as role_name, u.organisation_id, o.name as organisation_name, u.skin_tone_id,
  u.account_status,
  (select ec.new_email from email_changes ec
    where ec.user_id = u.id and ec.confirmed_at is null and ec.expires_at > now()) as pending_email,
  k.issuer as platform_issuer, k.platform_sub,
  array(select held_lb.license_name from license_block_users held
          join license_blocks held_lb on held_lb.id = held.license_block_id
         where held.user_id = u.id
         order by lower(held_lb.license_name), held_lb.id) as license_names`;

/**
 * Joined after USER_SELECT's tables: the first platform link of a user without e-mail, which is
 * how the lists tell such users apart.
 */
export const USER_PLATFORM_JOIN = `left join lateral (
    select l.issuer, l.platform_sub from lti_user_links l
     where l.user_id = u.id and u.email is null order by l.created_at, l.issuer limit 1) k on true`;

/** The issuer's host: what an administrator recognises a platform by. */
function platformUserOf(row: UserRow): PlatformUser | undefined {
  if (row.email !== null || !row.platform_issuer || !row.platform_sub) return undefined;
  let platform = row.platform_issuer;
  try {
    platform = new URL(row.platform_issuer).host;
  } catch {
    // A registration's issuer is an http(s) URL; should one not parse, the text itself names it.
  }
  return { platform, id: row.platform_sub };
}

/** A USER_SELECT row as docs/requirements.md#data (Licensed user). */
export const toLicensedUser = (row: UserRow): LicensedUser => ({
  id: row.id,
  fullName: `${row.first_name} ${row.last_name}`.trim(),
  firstName: row.first_name,
  lastName: row.last_name,
  email: row.email,
  ...(platformUserOf(row) ? { platformUser: platformUserOf(row) } : {}),
  userRole: row.role_id,
  roleName: row.role_name,
  licenseNames: row.license_names ?? [],
  organisationName: row.organisation_name,
  skinTone: row.skin_tone_id,
});

/** A USER_SELECT row as administrators see a user: plus organisation and account. */
const toAdminUser = (row: UserRow): AdminUser => ({
  ...toLicensedUser(row),
  organisation: row.organisation_id,
  accountStatus: row.account_status,
  pendingEmail: row.pending_email,
});

/** A role and whether it makes its holders global administrators (it can create organisations). */
export interface RoleInfo {
  id: number;
  name: string;
  isGlobal: boolean;
}

const GLOBAL_ROLE_SQL = (role: string) => `exists (
  select 1 from role_permissions rp join permissions p on p.id = rp.permission_id
   where rp.role_id = ${role} and p.codename = 'global.create_org')`;

export interface NewUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** A user from a learning platform that sent no e-mail has none (issue #22 point 3). */
export type NewUserRow = Omit<NewUser, 'email'> & { email: string | null };

type AccountChange = { sub?: string; status?: Exclude<AccountStatus, 'active'> };

// The functions below take their handle as an argument only for the callers outside the people
// domain (identity provisioning, LTI users) until their layers move to the repository (#21);
// inside it they are the repository's methods.

async function emailsInUse(q: Queryable, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const res = await q.query<{ email: string }>(
    'select lower(email) as email from users where lower(email) = any($1::text[])',
    [emails],
  );
  return new Set(res.rows.map((r) => r.email));
}

async function insertUsers(
  tx: Queryable,
  users: readonly NewUserRow[],
  organisationId: number,
  roleId: number,
  language: string,
): Promise<void> {
  if (users.length === 0) return;
  await tx.query(
    `insert into users (id, email, first_name, last_name, organisation_id, role_id, language,
                        account_status)
     select id, email, first_name, last_name, $5, $6, $7, 'provisioning'
       from unnest($1::uuid[], $2::text[], $3::text[], $4::text[])
         as n(id, email, first_name, last_name)`,
    [
      users.map((u) => u.id),
      users.map((u) => u.email),
      users.map((u) => u.firstName),
      users.map((u) => u.lastName),
      organisationId,
      roleId,
      language,
    ],
  );
}

/** The account's id at the identity provider, once known; null = not created (yet). */
async function identitySubOf(tx: Queryable, id: string): Promise<string | null> {
  const res = await tx.query<{ sub: string | null }>(
    `select coalesce(identity_sub, case when account_status = 'active' then id::text end) as sub
       from users where id = $1`,
    [id],
  );
  return res.rows[0]?.sub ?? null;
}

/**
 * The provisioning worker's record of the account: its id at the provider, and how far the
 * invitation got. `status` never overwrites `active`: a user may follow the invitation link and
 * sign in before the worker that sent it has written `invited` (or, retrying a lost answer,
 * `failed`), and signing in is the last word on the account.
 */
async function setAccount(tx: Queryable, id: string, change: AccountChange): Promise<void> {
  await tx.query(
    `update users set identity_sub = coalesce($2, identity_sub),
                      account_status = case when account_status = 'active' then account_status
                                            else coalesce($3, account_status) end
      where id = $1`,
    [id, change.sub ?? null, change.status ?? null],
  );
}

/**
 * The first authenticated request of an account the provider made for us (token `sub` =
 * `identity_sub`): the user set their password and signed in, so the account is `active`. One
 * statement, so that it is atomic on its own: the conditional update takes the row's lock and
 * re-reads the status, so of two first requests at once only one changes the row and records
 * it; the audit entry (by the user themselves) is written by the same statement. True when this
 * call made the change.
 */
async function activateAccount(db: Queryable, sub: string): Promise<boolean> {
  const res = await db.query(
    `with previous as (
       select id, account_status from users
        where identity_sub = $1 and account_status <> 'active'
          for update),
     activated as (
       update users u set account_status = 'active', updated_at = now()
         from previous p
        where u.id = p.id and u.account_status <> 'active'
       returning u.id, u.first_name, u.last_name, u.email, u.organisation_id, p.account_status)
     insert into audit_log (actor_id, actor_name, actor_email, action, entity_type, entity_id,
                            organisation_id, before, after)
     select a.id, trim(a.first_name || ' ' || a.last_name), a.email, 'activate', 'user', a.id::text,
            a.organisation_id, jsonb_build_object('accountStatus', a.account_status),
            jsonb_build_object('accountStatus', 'active')
       from activated a`,
    [sub],
  );
  return res.rowCount > 0;
}
