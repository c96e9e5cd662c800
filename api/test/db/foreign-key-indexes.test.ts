import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../src/db/migrate';
import { createTestDatabase, type TestDatabase } from '../helper';

/**
 * Reference data's foreign keys, which may stay without an index on the referencing column: the
 * rows they point at (lookups, roles, permissions, entitlements, categories) are few and are not
 * deleted while anything uses them, so no delete ever has to look for their referencing rows.
 */
const REFERENCE_DATA_KEYS = [
  'evidence.evidence_analysis_status_id_fkey',
  'license_block_entitlements.license_block_entitlements_entitlement_id_fkey',
  'license_blocks.license_blocks_duration_id_fkey',
  'organisations.organisations_country_id_fkey',
  'organisations.organisations_default_language_id_fkey',
  'organisations.organisations_learning_management_system_id_fkey',
  'organisations.organisations_measurement_standard_id_fkey',
  'organisations.organisations_radiation_unit_system_id_fkey',
  'product_categories.product_categories_parent_id_fkey',
  'role_permissions.role_permissions_permission_id_fkey',
  'users.users_role_id_fkey',
  'users.users_skin_tone_id_fkey',
];

/**
 * Migration 0049: a delete looks up the rows that point at the deleted one through each foreign
 * key, and without an index on the referencing columns reads the whole referencing table (a
 * user's deletion read every mark and every session). Every foreign key has an index whose
 * leading columns are the key's, apart from the reference data's above.
 */
describe('foreign keys', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await migrate(database.db);
  });
  after(async () => {
    await database.db.close();
    await database.dispose();
  });

  test('each has an index on its referencing columns, but reference data’s', async () => {
    const res = await database.db.query<{ key: string }>(
      `select t.relname || '.' || c.conname as key
         from pg_constraint c
         join pg_class t on t.oid = c.conrelid
        where c.contype = 'f'
          and c.connamespace = current_schema()::regnamespace
          and not exists (
            select 1 from pg_index i
             where i.indrelid = c.conrelid
               and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
               and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
        order by 1`,
    );
    assert.deepEqual(
      res.rows.map((r) => r.key),
      REFERENCE_DATA_KEYS,
    );
  });

  test('a delete’s look-ups use the partial indexes, as the key’s trigger plans them', async () => {
    // The trigger's look-up is one generic plan with a parameter (`column = $1`); a partial index
    // `where column is not null` serves it only because `=` never matches a null.
    const lookups = [
      ['evidence_marks', 'overridden_by', 'uuid', 'evidence_marks_overridden_by_idx'],
      [
        'simulation_sessions',
        'grade_released_by',
        'uuid',
        'simulation_sessions_grade_released_by_idx',
      ],
      ['evidence', 'image_file_id', 'uuid', 'evidence_image_file_idx'],
    ] as const;
    for (const [table, column, type, index] of lookups) {
      const plan = await database.db.transaction(async (tx) => {
        await tx.query('set local enable_seqscan = off');
        await tx.query('set local plan_cache_mode = force_generic_plan');
        await tx.query(`prepare fk_lookup(${type}) as select 1 from ${table} where ${column} = $1`);
        try {
          const res = await tx.query<{ 'QUERY PLAN': string }>(
            `explain execute fk_lookup('00000000-0000-0000-0000-000000000000')`,
          );
          return res.rows.map((r) => r['QUERY PLAN']).join('\n');
        } finally {
          await tx.query('deallocate fk_lookup');
        }
      });
      assert.match(plan, new RegExp(index), `${table}.${column}:\n${plan}`);
    }
  });
});
