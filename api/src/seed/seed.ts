import { PERMISSIONS } from '@portal/contract';
import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import type { Db, Queryable } from '../db/driver';
import { seedCatalogue } from './catalogue';
import { seedDemoLtiPlatform } from './demo-lti';
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

const DEMO_ORGANISATIONS = [
  {
    name: 'Demo Hospital',
    city: 'London',
    country: 'GB',
    lms: 'brightspace',
    language: 'en',
    radiation: 'si',
    measurement: 'metric',
    mainContact: 'Dr. Dana Lead (Radiology)',
    technicalContact: 'it-support@demo.test',
  },
  {
    name: 'Other College',
    city: 'Berlin',
    country: 'DE',
    lms: 'moodle',
    language: 'de',
    radiation: 'si',
    measurement: 'metric',
    mainContact: 'Prof. Paul Leiter (Radiologie)',
    technicalContact: 'it@other.test',
  },
] as const;

async function lookupId(tx: Queryable, field: string, code: string): Promise<number> {
  const res = await tx.query<{ id: number }>(
    'select id from lookups where field = $1 and code = $2',
    [field, code],
  );
  const row = res.rows[0];
  if (!row) throw new Error(`Seed refers to a missing lookup ${field}=${code}`);
  return row.id;
}

/**
 * Demo organisations and the demo accounts (ids = their token `sub`), then the catalogue with its
 * licences. Leaves existing organisations and users as they are.
 */
export async function seedDemoData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const org of DEMO_ORGANISATIONS) {
      await tx.query(
        `insert into organisations (name, city, country_id, main_contact, primary_technical_contact,
           learning_management_system_id, default_language_id, radiation_unit_system_id,
           measurement_standard_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         on conflict ((lower(name))) do nothing`,
        [
          org.name,
          org.city,
          await lookupId(tx, 'country', org.country),
          org.mainContact,
          org.technicalContact,
          await lookupId(tx, 'learning_management_system', org.lms),
          await lookupId(tx, 'language', org.language),
          await lookupId(tx, 'radiation_units', org.radiation),
          await lookupId(tx, 'measurement_standard', org.measurement),
        ],
      );
    }
    for (const account of DEMO_ACCOUNTS) {
      await tx.query(
        `insert into users (id, email, first_name, last_name, organisation_id, role_id, language)
         values ($1, $2, $3, $4,
           (select id from organisations where lower(name) = lower($5)),
           (select id from roles where name = $6),
           $7)
         on conflict do nothing`,
        [
          account.sub,
          account.email,
          account.firstName,
          account.lastName,
          account.organisation,
          account.role,
          account.language,
        ],
      );
    }
    await seedCatalogue(tx);
    await seedDemoLtiPlatform(tx);
  });
}
