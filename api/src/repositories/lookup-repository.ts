import type { LookupItem } from '@portal/contract';
import type { Db } from '../db/driver';
import type { StaticLookupField } from '../seed/reference-data';

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

export function createLookupRepository(db: Db) {
  return {
    async listStatic(field: StaticLookupField): Promise<LookupItem[]> {
      const res = await db.query<LookupRow>(
        'select id, name, description, code from lookups where field = $1 order by sort, id',
        [field],
      );
      return res.rows.map(toItem);
    },

    async listRoles(): Promise<LookupItem[]> {
      const res = await db.query<LookupRow>(
        'select id, name, null::text as description, null::text as code from roles order by id',
      );
      return res.rows.map(toItem);
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
