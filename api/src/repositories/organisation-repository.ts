import {
  ORGANISATION_MESSAGES as M,
  ROLE_CODES,
  type DeactivatedOrganisation,
  type FieldErrors,
  type GradeReleasePolicy,
  type Organisation,
  type OrganisationInput,
  type OrganisationListQuery,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { badRequest } from '../lib/http-errors';
import { pagedList } from '../lib/paged-list';
import { ROLES } from '../reference/reference-data';
import { createAuditRepository, type AuditActor } from './audit-repository';

interface OrganisationRow {
  id: number;
  name: string;
  is_active: boolean;
  city: string | null;
  country_id: number | null;
  main_contact: string | null;
  primary_technical_contact: string | null;
  learning_management_system_id: number | null;
  default_language_id: number | null;
  radiation_unit_system_id: number | null;
  measurement_standard_id: number | null;
  grade_release: GradeReleasePolicy;
}

const toOrganisation = (row: OrganisationRow): Organisation => ({
  id: row.id,
  name: row.name,
  isActive: row.is_active,
  city: row.city,
  country: row.country_id,
  mainContact: row.main_contact,
  primaryTechnicalContact: row.primary_technical_contact,
  learningManagementSystem: row.learning_management_system_id,
  defaultLanguage: row.default_language_id,
  radiationUnitSystem: row.radiation_unit_system_id,
  measurementStandard: row.measurement_standard_id,
  gradeRelease: row.grade_release,
});

const SELECT = `o.id, o.name, o.is_active, o.city, o.country_id, o.main_contact,
  o.primary_technical_contact, o.learning_management_system_id, o.default_language_id,
  o.radiation_unit_system_id, o.measurement_standard_id, o.grade_release`;

/** Each lookup field of the form and the `lookups.field` its id must belong to. */
const LOOKUP_FIELDS = {
  country: 'country',
  learningManagementSystem: 'learning_management_system',
  defaultLanguage: 'language',
  radiationUnitSystem: 'radiation_units',
  measurementStandard: 'measurement_standard',
} as const satisfies Partial<Record<keyof OrganisationInput, string>>;

/** Optional texts: blank is stored as null, so "no city" has one spelling. */
const orNull = (text: string | null | undefined) => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
};

/** `name` of the unique index on lower(name): a concurrent create took the name first. */
function isNameTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e.code === '23505' &&
    (e.constraint === 'organisations_name_key' ||
      (typeof e.message === 'string' && e.message.includes('organisations_name_key')))
  );
}

const ORG_ADMIN_ROLE_ID = ROLES.find((role) => role.code === ROLE_CODES.orgAdmin)!.id;
/** How many administrators a deactivated organisation's members are shown. */
const CONTACTS_LISTED = 5;

export function createOrganisationRepository(db: Queryable) {
  async function validate(tx: Queryable, input: OrganisationInput, exceptId: number | null) {
    const errors: FieldErrors = {};
    if (input.name.trim() === '') errors.name = [M.blank];
    if (input.mainContact.trim() === '') errors.mainContact = [M.blank];
    const lookups = Object.entries(LOOKUP_FIELDS) as Array<[keyof typeof LOOKUP_FIELDS, string]>;
    const found = await tx.query<{ field: string; id: number }>(
      `select l.field, l.id from lookups l
        join unnest($1::text[], $2::integer[]) as wanted (field, id)
          on wanted.field = l.field and wanted.id = l.id`,
      [lookups.map(([, field]) => field), lookups.map(([key]) => input[key])],
    );
    for (const [key, field] of lookups) {
      if (!found.rows.some((r) => r.field === field && r.id === input[key])) {
        errors[key] = [M.invalidChoice];
      }
    }
    if (!errors.name) {
      const taken = await tx.query(
        'select 1 from organisations where lower(name) = lower($1) and id is distinct from $2',
        [input.name.trim(), exceptId],
      );
      if (taken.rowCount > 0) errors.name = [M.nameTaken];
    }
    if (Object.keys(errors).length > 0) throw badRequest(errors);
  }

  const values = (input: OrganisationInput) => [
    input.name.trim(),
    orNull(input.city),
    input.country,
    input.mainContact.trim(),
    orNull(input.primaryTechnicalContact),
    input.learningManagementSystem,
    input.defaultLanguage,
    input.radiationUnitSystem,
    input.measurementStandard,
  ];

  async function findIn(tx: Queryable, id: number): Promise<Organisation | null> {
    const res = await tx.query<OrganisationRow>(
      `select ${SELECT} from organisations o where o.id = $1`,
      [id],
    );
    const row = res.rows[0];
    return row ? toOrganisation(row) : null;
  }

  /** Turns the unique index's refusal of a racing duplicate into the form's message. */
  async function guardName<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isNameTaken(error)) throw badRequest({ name: [M.nameTaken] });
      throw error;
    }
  }

  return {
    /** One page; `onlyId` limits it to the caller's own organisation. */
    list(query: OrganisationListQuery, onlyId?: number | null) {
      return pagedList<OrganisationRow, Organisation>(db, query, {
        from: 'organisations o',
        select: SELECT,
        ...(onlyId === undefined
          ? {}
          : // An administrator of no organisation sees none: `id = null` matches nothing.
            { where: { sql: 'o.id = $1::integer', params: [onlyId] } }),
        sortable: {
          id: 'o.id',
          name: 'lower(o.name)',
          isActive: 'o.is_active',
          city: 'lower(o.city)',
        },
        searchable: ['o.name', 'o.city', 'o.main_contact', 'o.primary_technical_contact'],
        defaultOrdering: 'name',
        tieBreaker: 'o.id',
        map: toOrganisation,
      });
    },

    find: (id: number) => findIn(db, id),

    async exists(id: number): Promise<boolean> {
      const res = await db.query('select 1 from organisations where id = $1', [id]);
      return res.rowCount > 0;
    },

    /**
     * Whom the members of a deactivated organisation can turn to: its main contact and its
     * active administrators (a few; the page lists them). Read only on that refusal.
     */
    async contactsOf(id: number): Promise<DeactivatedOrganisation | null> {
      const org = await db.query<{ id: number; name: string; main_contact: string | null }>(
        'select id, name, main_contact from organisations where id = $1',
        [id],
      );
      const row = org.rows[0];
      if (!row) return null;
      const admins = await db.query<{ first_name: string; last_name: string; email: string }>(
        `select u.first_name, u.last_name, u.email from users u
          where u.organisation_id = $1 and u.role_id = $2 and u.account_status = 'active'
          order by u.last_name, u.first_name, u.email limit $3`,
        [id, ORG_ADMIN_ROLE_ID, CONTACTS_LISTED],
      );
      return {
        id: row.id,
        name: row.name,
        mainContact: orNull(row.main_contact),
        administrators: admins.rows.map((a) => ({
          name: `${a.first_name} ${a.last_name}`.trim(),
          email: a.email,
        })),
      };
    },

    create(input: OrganisationInput, actor: AuditActor): Promise<Organisation> {
      return guardName(async () => {
        await validate(db, input, null);
        const res = await db.query<{ id: number }>(
          `insert into organisations (name, city, country_id, main_contact,
               primary_technical_contact, learning_management_system_id, default_language_id,
               radiation_unit_system_id, measurement_standard_id, is_active, grade_release)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
          [...values(input), input.isActive ?? true, input.gradeRelease ?? 'automatic'],
        );
        const created = (await findIn(db, res.rows[0]!.id))!;
        await createAuditRepository(db).record({
          actor,
          action: 'create',
          entityType: 'organisation',
          entityId: created.id,
          organisationId: created.id,
          after: created,
        });
        return created;
      });
    },

    /**
     * null when there is no such organisation. `mayActivate`: whether the caller may change
     * `isActive` (global administrators); others sending another value get a 400.
     */
    update(
      id: number,
      input: OrganisationInput,
      actor: AuditActor,
      mayActivate: boolean,
    ): Promise<Organisation | null> {
      return guardName(async () => {
        const locked = await db.query('select 1 from organisations where id = $1 for update', [id]);
        if (locked.rowCount === 0) return null;
        const before = (await findIn(db, id))!;
        if (!mayActivate && input.isActive !== undefined && input.isActive !== before.isActive) {
          throw badRequest({ isActive: [M.onlyGlobalAdminActivates] });
        }
        await validate(db, input, id);
        await db.query(
          `update organisations
                set name = $2, city = $3, country_id = $4, main_contact = $5,
                    primary_technical_contact = $6, learning_management_system_id = $7,
                    default_language_id = $8, radiation_unit_system_id = $9,
                    measurement_standard_id = $10, is_active = $11, grade_release = $12,
                    updated_at = now()
              where id = $1`,
          [
            id,
            ...values(input),
            input.isActive ?? before.isActive,
            input.gradeRelease ?? before.gradeRelease,
          ],
        );
        const after = (await findIn(db, id))!;
        await createAuditRepository(db).record({
          actor,
          action: 'update',
          entityType: 'organisation',
          entityId: id,
          organisationId: id,
          before,
          after,
        });
        return after;
      });
    },
  };
}

export type OrganisationRepository = ReturnType<typeof createOrganisationRepository>;
