import type { LookupItem } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { currentLicenseSql, isoDay } from './entitlement-repository';
import { roleCodeOf, type StaticLookupField } from '../reference/reference-data';

interface LookupRow {
  id: number;
  name: string;
  description: string | null;
  code: string | null;
}

const toItem = (row: LookupRow): LookupItem => ({
  id: row.id,
  name: row.name,
  description: row.description,
  code: row.code,
});

export function createLookupRepository(db: Queryable) {
  return {
    async listStatic(field: StaticLookupField): Promise<LookupItem[]> {
      const res = await db.query<LookupRow>(
        'select id, name, description, code from lookups where field = $1 order by sort, id',
        [field],
      );
      return res.rows.map(toItem);
    },

    /** Each role with its stable code (ROLE_CODES), by which front ends recognise it. */
    async listRoles(): Promise<LookupItem[]> {
      const res = await db.query<LookupRow>(
        'select id, name, null::text as description, null::text as code from roles order by id',
      );
      return res.rows.map((row) => ({ ...toItem(row), code: roleCodeOf(row.id) }));
    },

    /** All organisations, or only `onlyId` when the caller may see just their own. */
    async listOrganisations(onlyId?: number | null): Promise<LookupItem[]> {
      const res =
        onlyId === undefined
          ? await db.query<LookupRow>(
              'select id, name, null::text as description, null::text as code from organisations order by lower(name), id',
            )
          : await db.query<LookupRow>(
              'select id, name, null::text as description, null::text as code from organisations where id = $1',
              [onlyId],
            );
      return res.rows.map(toItem);
    },

    /** One entry per product and mode, e.g. "Radiography – VR" with code "radiography:VR". */
    async listEntitlements(): Promise<LookupItem[]> {
      const res = await db.query<LookupRow>(
        `select e.id, p.name || ' – ' || e.mode as name, null::text as description,
                p.code || ':' || e.mode as code
           from entitlements e
           join products p on p.id = e.product_id
          order by p.sort, p.id, case e.mode when 'VR' then 0 else 1 end`,
      );
      return res.rows.map(toItem);
    },

    /**
     * `organisation_licenses`: the organisation's licences users can be given now (active, not
     * expired, duration not "inactive"; a licence may be filled before it starts), with the seats
     * left and the expiry in the description, e.g. "8 of 10 seats available, expires 31/12/2027".
     */
    async listOrganisationLicenses(
      organisationId: number,
      today: Date = new Date(),
    ): Promise<LookupItem[]> {
      const res = await db.query<{
        id: number;
        name: string;
        free: number;
        seats: number;
        expiry: string;
      }>(
        `select lb.id, lb.license_name as name, lb.number_of_seats - lb.seats_used as free,
                lb.number_of_seats as seats, to_char(lb.expiry_date, 'DD/MM/YYYY') as expiry
           from license_blocks lb
          where lb.organisation_id = $1
            and ${currentLicenseSql('lb', '$2::date', { notStartedToo: true })}
          order by lower(lb.license_name), lb.id`,
        [organisationId, isoDay(today)],
      );
      return res.rows.map((r) => ({
        id: r.id,
        name: r.name,
        description: `${r.free} of ${r.seats} seats available, expires ${r.expiry}`,
        code: null,
      }));
    },

    async listProducts(): Promise<LookupItem[]> {
      const res = await db.query<LookupRow>(
        'select id, name, description, code from products order by sort, id',
      );
      return res.rows.map(toItem);
    },

    async existsByCode(field: StaticLookupField, code: string): Promise<boolean> {
      const res = await db.query('select 1 from lookups where field = $1 and code = $2', [
        field,
        code,
      ]);
      return res.rowCount > 0;
    },

    async existsById(field: StaticLookupField, id: number): Promise<boolean> {
      const res = await db.query('select 1 from lookups where field = $1 and id = $2', [field, id]);
      return res.rowCount > 0;
    },
  };
}

export type LookupRepository = ReturnType<typeof createLookupRepository>;
