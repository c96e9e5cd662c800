import {
  LICENSE_BLOCK_MESSAGES as M,
  type FieldErrors,
  type LicenseBlock,
  type LicenseBlockInput,
  type LicenseBlockListQuery,
  type LicensedUser,
  type LicensedUserListQuery,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { badRequest } from '../lib/http-errors';
import { pagedList } from '../lib/paged-list';
import { createAuditRepository, type AuditActor } from './audit-repository';
import { currentLicenseSql, INACTIVE_DURATION, isoDay } from './entitlement-repository';
import { toLicensedUser, USER_PLATFORM_JOIN, USER_SELECT, type UserRow } from './user-repository';

export type AssignResult =
  | { ok: true; assigned: number }
  | { ok: false; reason: 'seats'; available: number }
  | { ok: false; reason: 'inactive' }
  | { ok: false; reason: 'not-found' }
  /** Ids that are no users of the licence's organisation. */
  | { ok: false; reason: 'users'; userIds: string[] };

export interface AssignUsersInput {
  licenseBlockId: number;
  organisationId: number;
  userIds: readonly string[];
  actor: AuditActor;
  /** For tests; the licence must be current on this day. */
  today?: Date;
}

/** The licence row, locked until `tx` ends, with whether it is current `today`. */
async function lockLicense(tx: Queryable, id: number, organisationId: number, today: Date) {
  const res = await tx.query<{
    license_name: string;
    number_of_seats: number;
    seats_used: number;
    current: boolean;
  }>(
    `select lb.license_name, lb.number_of_seats, lb.seats_used,
            ${currentLicenseSql('lb', '$3::date', { notStartedToo: true })} as current
       from license_blocks lb
      where lb.id = $1 and lb.organisation_id = $2
        for update`,
    [id, organisationId, isoDay(today)],
  );
  return res.rows[0] ?? null;
}

/**
 * Gives each user a seat of the licence, inside the caller's transaction (the bulk user add calls
 * it in its own). All or nothing: when the seats do not suffice, nothing is assigned and the
 * caller should roll back. Users who already hold a seat keep it and need none.
 *
 * The licence row is locked `for update` first, so concurrent assignments to one licence queue
 * here and each sees the seats the previous one took; the database's own check
 * (license_blocks_seats_check, migration 0005) refuses an overbooking from any other path. A
 * licence may be filled before its start date, but not when it is inactive or expired.
 */
// A free function only for LTI's platform users until their layer takes the repository (#21).
async function assignUsers(tx: Queryable, input: AssignUsersInput): Promise<AssignResult> {
  const today = input.today ?? new Date();
  const license = await lockLicense(tx, input.licenseBlockId, input.organisationId, today);
  if (!license) return { ok: false, reason: 'not-found' };
  if (!license.current) return { ok: false, reason: 'inactive' };
  const userIds = [...new Set(input.userIds.map((id) => id.toLowerCase()))];
  if (userIds.length === 0) return { ok: true, assigned: 0 };

  const members = await tx.query<{ id: string; holds: boolean }>(
    `select u.id::text as id,
            exists (select 1 from license_block_users s
                     where s.license_block_id = $3 and s.user_id = u.id) as holds
       from users u
      where u.id = any($1::uuid[]) and u.organisation_id = $2`,
    [userIds, input.organisationId, input.licenseBlockId],
  );
  if (members.rows.length !== userIds.length) {
    const found = new Set(members.rows.map((r) => r.id.toLowerCase()));
    return { ok: false, reason: 'users', userIds: userIds.filter((id) => !found.has(id)) };
  }
  const needed = members.rows.filter((r) => !r.holds).map((r) => r.id);
  const available = license.number_of_seats - license.seats_used;
  if (needed.length > available) return { ok: false, reason: 'seats', available };
  if (needed.length === 0) return { ok: true, assigned: 0 };

  await tx.query(
    `insert into license_block_users (license_block_id, user_id)
     select $1, unnest($2::uuid[])
     on conflict do nothing`,
    [input.licenseBlockId, needed],
  );
  await createAuditRepository(tx).record({
    actor: input.actor,
    action: 'assign',
    entityType: 'license_block',
    entityId: input.licenseBlockId,
    organisationId: input.organisationId,
    // The name in both, so the organisation's activity list can say which licence it was.
    before: { licenseName: license.license_name, seatsUsed: license.seats_used },
    after: {
      licenseName: license.license_name,
      seatsUsed: license.seats_used + needed.length,
      userIds: needed,
    },
  });
  return { ok: true, assigned: needed.length };
}

/**
 * Takes the user's seat of the licence (DELETE /user/{userId}/license-block/{id}), inside the
 * caller's transaction, and records it. False when the user held no seat of it in that
 * organisation (`organisationId` null: any organisation, for global administrators).
 */
async function unassignUser(
  tx: Queryable,
  input: {
    licenseBlockId: number;
    userId: string;
    organisationId: number | null;
    actor: AuditActor;
  },
): Promise<boolean> {
  const res = await tx.query<{ organisation_id: number; license_name: string }>(
    `delete from license_block_users s
      using license_blocks lb
      where s.license_block_id = lb.id
        and s.license_block_id = $1 and s.user_id = $2::uuid
        and ($3::integer is null or lb.organisation_id = $3)
      returning lb.organisation_id, lb.license_name`,
    [input.licenseBlockId, input.userId, input.organisationId],
  );
  const row = res.rows[0];
  if (!row) return false;
  await createAuditRepository(tx).record({
    actor: input.actor,
    action: 'unassign',
    entityType: 'license_block_user',
    entityId: `${input.licenseBlockId}:${input.userId}`,
    organisationId: row.organisation_id,
    before: {
      licenseBlockId: input.licenseBlockId,
      licenseName: row.license_name,
      userId: input.userId,
    },
    after: null,
  });
  return true;
}

interface LicenseRow {
  id: number;
  license_name: string;
  sales_reference: string | null;
  seats_used: number;
  number_of_seats: number;
  start_date: string;
  expiry_date: string;
  is_active: boolean;
  duration_id: number;
  organisation_id: number;
  entitlements: number[] | null;
  is_current: boolean;
}

const toLicense = (row: LicenseRow): LicenseBlock => ({
  id: row.id,
  licenseName: row.license_name,
  salesReference: row.sales_reference,
  seatsUsed: row.seats_used,
  numberOfSeats: row.number_of_seats,
  startDate: row.start_date,
  expiryDate: row.expiry_date,
  isActive: row.is_active,
  duration: row.duration_id,
  organisation: row.organisation_id,
  entitlements: row.entitlements ?? [],
  isCurrent: row.is_current,
});

/** Select list of a LicenseRow; `$today` is the placeholder of today's date. */
const licenseSelect = (today: string) => `
  lb.id, lb.license_name, lb.sales_reference, lb.seats_used, lb.number_of_seats,
  to_char(lb.start_date, 'YYYY-MM-DD') as start_date,
  to_char(lb.expiry_date, 'YYYY-MM-DD') as expiry_date,
  lb.is_active, lb.duration_id, lb.organisation_id,
  array(select lbe.entitlement_id from license_block_entitlements lbe
         where lbe.license_block_id = lb.id order by lbe.entitlement_id) as entitlements,
  ${currentLicenseSql('lb', today)} as is_current`;

const MIN_DAY = '1900-01-01';
const MAX_DAY = '9999-12-31';
/** A computed expiry past year 9999 has five year digits, which sort before '9999' as text. */
const isPastMaxDay = (day: string) => day.length > MAX_DAY.length || day > MAX_DAY;

/** A PostgreSQL check violation of the seat limit (a concurrent writer took the last seats). */
export function isSeatLimitViolation(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e.code === '23514' &&
    (e.constraint === 'license_blocks_seats_check' ||
      (typeof e.message === 'string' && e.message.includes('license_blocks_seats_check')))
  );
}

/** Whose licences a list shows: an organisation's, or those a user holds a seat of. */
export type LicenseListScope = { organisationId: number } | { heldBy: string };

export function createLicenseRepository(db: Queryable) {
  /** Field errors of a licence form that the schema cannot see (lookups, dates, entitlements). */
  async function validate(
    tx: Queryable,
    input: LicenseBlockInput,
  ): Promise<{ errors: FieldErrors; durationCode: string | null; entitlements: number[] }> {
    const errors: FieldErrors = {};
    const add = (field: string, message: string) => {
      errors[field] = [...(errors[field] ?? []), message];
    };
    if (input.licenseName.trim() === '') add('licenseName', M.blank);
    for (const field of ['startDate', 'expiryDate'] as const) {
      const day = input[field];
      if (day && (day < MIN_DAY || day > MAX_DAY)) add(field, M.dateOutOfRange);
    }
    if (input.expiryDate && input.expiryDate < input.startDate)
      add('expiryDate', M.expiryBeforeStart);
    const duration = await tx.query<{ code: string | null }>(
      `select code from lookups where field = 'license_duration' and id = $1`,
      [input.duration],
    );
    if (duration.rows.length === 0) add('duration', M.invalidChoice);
    const entitlements = [...new Set(input.entitlements)].sort((a, b) => a - b);
    const known = await tx.query<{ id: number }>(
      'select id from entitlements where id = any($1::integer[])',
      [entitlements],
    );
    if (known.rows.length !== entitlements.length) add('entitlements', M.invalidChoice);
    return { errors, durationCode: duration.rows[0]?.code ?? null, entitlements };
  }

  /** The expiry date as sent, or start + duration − 1 day ("inactive": the start day). */
  async function expiryOf(tx: Queryable, input: LicenseBlockInput, durationCode: string | null) {
    if (input.expiryDate) return input.expiryDate;
    if (!durationCode || !/^P\d+[YMWD]$/.test(durationCode)) return input.startDate;
    const res = await tx.query<{ day: string }>(
      `select to_char($1::date + $2::interval - interval '1 day', 'YYYY-MM-DD') as day`,
      [input.startDate, durationCode],
    );
    return res.rows[0]!.day;
  }

  async function findIn(tx: Queryable, organisationId: number, id: number, today: Date) {
    const res = await tx.query<LicenseRow>(
      `select ${licenseSelect('$3::date')} from license_blocks lb
        where lb.organisation_id = $1 and lb.id = $2`,
      [organisationId, id, isoDay(today)],
    );
    const row = res.rows[0];
    return row ? toLicense(row) : null;
  }

  async function writeEntitlements(tx: Queryable, id: number, entitlements: number[]) {
    await tx.query('delete from license_block_entitlements where license_block_id = $1', [id]);
    await tx.query(
      `insert into license_block_entitlements (license_block_id, entitlement_id)
       select $1, unnest($2::integer[])`,
      [id, entitlements],
    );
  }

  return {
    /** Must run in a transaction: see `assignUsers`. */
    assignUsers: (input: AssignUsersInput) => assignUsers(db, input),
    unassignUser: (input: Parameters<typeof unassignUser>[1]) => unassignUser(db, input),

    /** The licence's organisation and that organisation's default language, or null. */
    async findOwner(
      id: number,
    ): Promise<{ organisationId: number; language: string | null } | null> {
      const res = await db.query<{ organisation_id: number; language: string | null }>(
        `select lb.organisation_id, l.code as language
           from license_blocks lb
           join organisations o on o.id = lb.organisation_id
           left join lookups l on l.id = o.default_language_id
          where lb.id = $1`,
        [id],
      );
      const row = res.rows[0];
      return row ? { organisationId: row.organisation_id, language: row.language } : null;
    },

    /** Its free seats now and whether it may be filled today (current, or not started yet). */
    async seatState(id: number, today: Date = new Date()) {
      const res = await db.query<{ free: number; usable: boolean }>(
        `select lb.number_of_seats - lb.seats_used as free,
                ${currentLicenseSql('lb', '$2::date', { notStartedToo: true })} as usable
           from license_blocks lb where lb.id = $1`,
        [id, isoDay(today)],
      );
      return res.rows[0] ?? null;
    },

    /**
     * One page of licences as the licence lists show them: an organisation's
     * (GET /organisation/{id}/license-block), or those a user holds a seat of
     * (GET /user/{id}/license-block), whichever organisation they belong to.
     */
    list(scope: LicenseListScope, query: LicenseBlockListQuery, today: Date = new Date()) {
      const heldBy = 'heldBy' in scope;
      return pagedList<LicenseRow, LicenseBlock>(db, query, {
        from: heldBy
          ? 'license_block_users s join license_blocks lb on lb.id = s.license_block_id'
          : 'license_blocks lb',
        select: licenseSelect('$2::date'),
        // The select list reads today as $2; the condition names its type, because PostgreSQL
        // refuses a parameter the count query (which has no select list) leaves untyped.
        where: heldBy
          ? {
              sql: 's.user_id = $1::uuid and $2::date is not null',
              params: [scope.heldBy, isoDay(today)],
            }
          : {
              sql: 'lb.organisation_id = $1 and $2::date is not null',
              params: [scope.organisationId, isoDay(today)],
            },
        sortable: {
          id: 'lb.id',
          licenseName: 'lower(lb.license_name)',
          salesReference: 'lower(lb.sales_reference)',
          numberOfSeats: 'lb.number_of_seats',
          seatsUsed: 'lb.seats_used',
          startDate: 'lb.start_date',
          expiryDate: 'lb.expiry_date',
          isActive: 'lb.is_active',
        },
        searchable: ['lb.license_name', 'lb.sales_reference'],
        defaultOrdering: 'licenseName',
        tieBreaker: 'lb.id',
        map: toLicense,
      });
    },

    find(organisationId: number, id: number, today: Date = new Date()) {
      return findIn(db, organisationId, id, today);
    },

    /** null when the organisation does not exist. */
    async create(
      organisationId: number,
      input: LicenseBlockInput,
      actor: AuditActor,
      today: Date = new Date(),
    ): Promise<LicenseBlock | null> {
      const org = await db.query('select 1 from organisations where id = $1 for share', [
        organisationId,
      ]);
      if (org.rowCount === 0) return null;
      const { errors, durationCode, entitlements } = await validate(db, input);
      if (Object.keys(errors).length > 0) throw badRequest(errors);
      const expiry = await expiryOf(db, input, durationCode);
      if (isPastMaxDay(expiry)) throw badRequest({ startDate: [M.dateOutOfRange] });
      const inserted = await db.query<{ id: number }>(
        `insert into license_blocks (organisation_id, license_name, sales_reference,
             number_of_seats, start_date, expiry_date, is_active, duration_id)
           values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [
          organisationId,
          input.licenseName.trim(),
          input.salesReference?.trim() || null,
          input.numberOfSeats,
          input.startDate,
          expiry,
          input.isActive ?? true,
          input.duration,
        ],
      );
      const id = inserted.rows[0]!.id;
      await writeEntitlements(db, id, entitlements);
      const created = (await findIn(db, organisationId, id, today))!;
      await createAuditRepository(db).record({
        actor,
        action: 'create',
        entityType: 'license_block',
        entityId: id,
        organisationId,
        after: created,
      });
      return created;
    },

    /** null when the organisation has no such licence. */
    async update(
      organisationId: number,
      id: number,
      input: LicenseBlockInput,
      actor: AuditActor,
      today: Date = new Date(),
    ): Promise<LicenseBlock | null> {
      // Locked first: seat assignments to this licence wait, so the seats check below holds.
      const locked = await db.query<{
        start_date: string;
        seats_used: number;
        code: string | null;
      }>(
        `select to_char(lb.start_date, 'YYYY-MM-DD') as start_date, lb.seats_used, d.code
             from license_blocks lb left join lookups d on d.id = lb.duration_id
            where lb.organisation_id = $1 and lb.id = $2
              for update of lb`,
        [organisationId, id],
      );
      const current = locked.rows[0];
      if (!current) return null;
      const before = (await findIn(db, organisationId, id, today))!;
      const { errors, durationCode, entitlements } = await validate(db, input);
      if (current.code === INACTIVE_DURATION && input.startDate !== current.start_date) {
        errors.startDate = [...(errors.startDate ?? []), M.startDateReadOnly];
      }
      if (input.numberOfSeats < current.seats_used) {
        errors.numberOfSeats = [
          ...(errors.numberOfSeats ?? []),
          M.seatsBelowUsed.replace('{n}', String(current.seats_used)),
        ];
      }
      if (Object.keys(errors).length > 0) throw badRequest(errors);
      const expiry = await expiryOf(db, input, durationCode);
      if (isPastMaxDay(expiry)) throw badRequest({ startDate: [M.dateOutOfRange] });
      await db.query(
        `update license_blocks
              set license_name = $3, sales_reference = $4, number_of_seats = $5, start_date = $6,
                  expiry_date = $7, is_active = $8, duration_id = $9, updated_at = now()
            where organisation_id = $1 and id = $2`,
        [
          organisationId,
          id,
          input.licenseName.trim(),
          input.salesReference?.trim() || null,
          input.numberOfSeats,
          input.startDate,
          expiry,
          input.isActive ?? before.isActive,
          input.duration,
        ],
      );
      await writeEntitlements(db, id, entitlements);
      const after = (await findIn(db, organisationId, id, today))!;
      await createAuditRepository(db).record({
        actor,
        action: 'update',
        entityType: 'license_block',
        entityId: id,
        organisationId,
        before,
        after,
      });
      return after;
    },

    /** The licence's seat holders, one page; null when the organisation has no such licence. */
    async listUsers(organisationId: number, id: number, query: LicensedUserListQuery) {
      const exists = await db.query(
        'select 1 from license_blocks where organisation_id = $1 and id = $2',
        [organisationId, id],
      );
      if (exists.rowCount === 0) return null;
      return pagedList<UserRow, LicensedUser>(db, query, {
        from: `license_block_users s
               join license_blocks lb on lb.id = s.license_block_id
               join users u on u.id = s.user_id
               join roles r on r.id = u.role_id
               left join organisations o on o.id = u.organisation_id
               ${USER_PLATFORM_JOIN}`,
        select: USER_SELECT,
        where: {
          sql: 'lb.organisation_id = $1 and s.license_block_id = $2',
          params: [organisationId, id],
        },
        sortable: {
          fullName: "lower(u.first_name || ' ' || u.last_name)",
          firstName: 'lower(u.first_name)',
          lastName: 'lower(u.last_name)',
          email: 'lower(u.email)',
          roleName: 'r.name',
          assignedAt: 's.assigned_at',
        },
        searchable: [
          'u.first_name',
          'u.last_name',
          "u.first_name || ' ' || u.last_name",
          'u.email',
        ],
        defaultOrdering: 'lastName,firstName',
        tieBreaker: 'u.id',
        map: toLicensedUser,
      });
    },
  };
}

export type LicenseRepository = ReturnType<typeof createLicenseRepository>;
