import {
  DEMO_ACCOUNTS,
  DEMO_BRIGHTSPACE_ACCOUNTS,
  DEMO_BRIGHTSPACE_ORGANISATION,
} from '@portal/contract/demo-accounts';
import type { Db, Queryable } from '../db/driver';
import { seedCatalogue } from './catalogue';
import { seedDemoLtiPlatform } from './demo-lti';

/**
 * Demo Hospital, whose accounts a newcomer tries first, uses a platform without Brightspace's
 * sign-in (issue #25 point 6): its learners reach the portal's home page right after signing in.
 * The Brightspace flow has an organisation of its own.
 */
const DEMO_ORGANISATIONS = [
  {
    name: 'Demo Hospital',
    city: 'London',
    country: 'GB',
    lms: 'moodle',
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
  {
    name: DEMO_BRIGHTSPACE_ORGANISATION,
    city: 'Manchester',
    country: 'GB',
    lms: 'brightspace',
    language: 'en',
    radiation: 'si',
    measurement: 'metric',
    mainContact: 'Dr. Bea Bright (Radiography)',
    technicalContact: 'it@brightspace.test',
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

/** The demo organisations the seed makes: the benches spread their learners over these too. */
export const DEMO_ORGANISATION_COUNT = DEMO_ORGANISATIONS.length;

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
    for (const account of [...DEMO_ACCOUNTS, ...DEMO_BRIGHTSPACE_ACCOUNTS]) {
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
