import { PERMISSIONS } from '@portal/contract';
import type { Db } from '../db/driver';
import { LOOKUP_SEED, ROLE_PERMISSIONS, ROLES } from './reference-data';

/**
 * Reference data the API cannot work without (lookups, roles, permissions). The code is the
 * source of truth: rows are upserted and role permissions re-synced on every start.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // Entitlements were static lookups before the catalogue; they now come from the entitlements
    // table, and no foreign key ever pointed at these rows.
    await tx.query("delete from lookups where field = 'entitlement'");
    for (const l of LOOKUP_SEED) {
      await tx.query(
        `insert into lookups (id, field, name, description, code, sort)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (id) do update set field = excluded.field, name = excluded.name,
           description = excluded.description, code = excluded.code, sort = excluded.sort`,
        [l.id, l.field, l.name, l.description, l.code, l.sort],
      );
    }
    for (const role of ROLES) {
      await tx.query(
        'insert into roles (id, name) values ($1, $2) on conflict (id) do update set name = excluded.name',
        [role.id, role.name],
      );
    }
    for (const codename of PERMISSIONS) {
      await tx.query(
        'insert into permissions (codename) values ($1) on conflict (codename) do nothing',
        [codename],
      );
    }
    for (const role of ROLES) {
      const wanted = ROLE_PERMISSIONS[role.name];
      await tx.query(
        `delete from role_permissions rp using permissions p
         where rp.permission_id = p.id and rp.role_id = $1 and not (p.codename = any($2::text[]))`,
        [role.id, [...wanted]],
      );
      await tx.query(
        `insert into role_permissions (role_id, permission_id)
         select $1, id from permissions where codename = any($2::text[])
         on conflict do nothing`,
        [role.id, [...wanted]],
      );
    }
  });
}
