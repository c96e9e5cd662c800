import { randomUUID } from 'node:crypto';
import type { LicenseBlockInput, OrganisationInput } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';

/** Shared by the organisation, licence and audit tests and the security suites. */

async function firstLookup(db: Queryable, field: string, code?: string): Promise<number> {
  const res = await db.query<{ id: number }>(
    `select id from lookups where field = $1 and ($2::text is null or code = $2)
      order by sort, id limit 1`,
    [field, code ?? null],
  );
  const id = res.rows[0]?.id;
  if (id === undefined) throw new Error(`no ${field} lookup ${code ?? ''}`);
  return id;
}

export async function organisationId(db: Queryable, name: string): Promise<number> {
  const res = await db.query<{ id: number }>('select id from organisations where name = $1', [
    name,
  ]);
  const id = res.rows[0]?.id;
  if (id === undefined) throw new Error(`no organisation ${name}`);
  return id;
}

/** A valid organisation form; `name` defaults to a fresh unique one. */
export async function organisationInput(
  db: Queryable,
  overrides: Partial<OrganisationInput> = {},
): Promise<OrganisationInput> {
  return {
    name: `Clinic ${randomUUID().slice(0, 8)}`,
    city: 'Leeds',
    country: await firstLookup(db, 'country', 'GB'),
    mainContact: 'Dr. Head (Radiology)',
    primaryTechnicalContact: 'it@clinic.test',
    learningManagementSystem: await firstLookup(db, 'learning_management_system', 'moodle'),
    defaultLanguage: await firstLookup(db, 'language', 'en'),
    radiationUnitSystem: await firstLookup(db, 'radiation_units', 'si'),
    measurementStandard: await firstLookup(db, 'measurement_standard', 'metric'),
    ...overrides,
  };
}

export const durationId = (db: Queryable, code: 'P1Y' | 'P2Y' | 'P3Y' | 'inactive') =>
  firstLookup(db, 'license_duration', code);

export async function entitlementId(
  db: Queryable,
  product: string,
  mode: 'VR' | 'Desktop',
): Promise<number> {
  const res = await db.query<{ id: number }>(
    `select e.id from entitlements e join products p on p.id = e.product_id
      where p.code = $1 and e.mode = $2`,
    [product, mode],
  );
  const id = res.rows[0]?.id;
  if (id === undefined) throw new Error(`no entitlement ${product} ${mode}`);
  return id;
}

/** `yyyy-MM-dd` of today plus `days` (UTC, as the API counts licence days). */
export const dayFromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A valid licence form: one year from 30 days ago (current today), 10 seats, Radiography Desktop. */
export async function licenseInput(
  db: Queryable,
  overrides: Partial<LicenseBlockInput> = {},
): Promise<LicenseBlockInput> {
  return {
    licenseName: `Licence ${randomUUID().slice(0, 8)}`,
    salesReference: 'SO-TEST-1',
    numberOfSeats: 10,
    startDate: dayFromToday(-30),
    duration: await durationId(db, 'P1Y'),
    entitlements: [await entitlementId(db, 'radiography', 'Desktop')],
    ...overrides,
  };
}

/** The id of a licence of the named organisation (the first by id). */
export async function licenseOf(db: Queryable, organisation: string): Promise<number> {
  const res = await db.query<{ id: number }>(
    `select lb.id from license_blocks lb join organisations o on o.id = lb.organisation_id
      where o.name = $1 order by lb.id limit 1`,
    [organisation],
  );
  const id = res.rows[0]?.id;
  if (id === undefined) throw new Error(`no licence of ${organisation}`);
  return id;
}
