import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { account, buildTestApp, type TestApp } from '../helper';
import { createReport } from '../factories/reports';

/**
 * Migration 0047: the update triggers that keep report counters, the analysis sort key and
 * insight images stay out of updates that set none of their columns (a session token's use, a
 * sort key, a score). Statement-level triggers fired for every such update and could not say
 * which columns they read; what they keep is checked against the rows in report-list.test.ts
 * and insight-aggregates.test.ts.
 */
describe('report triggers on updates', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('are row-level, limited to the columns they read, and always enabled', async () => {
    const res = await t.db.query<{
      name: string;
      row_level: boolean;
      columns: string[];
      enabled: string;
    }>(
      `select t.tgname as name, (t.tgtype & 1) = 1 as row_level, t.tgenabled::text as enabled,
              array(select a.attname::text from unnest(t.tgattr::int2[]) k(n)
                      join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k.n
                     order by a.attname) as columns
         from pg_trigger t
        where t.tgname in ('report_counts_update', 'evidence_report_keys_update',
                           'insight_images_sessions_update')
        order by t.tgname`,
    );
    assert.deepEqual(res.rows, [
      {
        name: 'evidence_report_keys_update',
        row_level: true,
        enabled: 'A',
        columns: ['analysis_status_id', 'session_uuid'],
      },
      {
        name: 'insight_images_sessions_update',
        row_level: true,
        enabled: 'A',
        columns: [
          'closed_at',
          'completed_at',
          'configuration',
          'created_at',
          'organisation_id',
          'pass_mark',
          'product_id',
          'status',
          'user_id',
          'uuid',
        ],
      },
      {
        name: 'report_counts_update',
        row_level: true,
        enabled: 'A',
        columns: ['status', 'user_id'],
      },
    ]);
  });

  test('the functions doing their work are planned once, not on every call', async () => {
    const res = await t.db.query<{ name: string; config: string[] | null }>(
      `select proname::text as name, proconfig as config from pg_proc
        where proname in ('insight_images_refresh', 'evidence_rank_sessions') order by proname`,
    );
    assert.deepEqual(res.rows, [
      { name: 'evidence_rank_sessions', config: ['plan_cache_mode=force_generic_plan'] },
      { name: 'insight_images_refresh', config: ['plan_cache_mode=force_generic_plan'] },
    ]);
  });

  test("a session token's use, a sort key or a score runs none of them", async () => {
    const session = await createReport(t.db, {
      userId: account('learner', 'Demo Hospital').sub,
      status: 'in_progress',
      evidence: [{}],
    });
    // A trigger that fires here fails the statement: none of the three may run.
    await t.db.exec(`
      create function report_triggers_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'a report trigger ran for an update it does not read'; end $$;`);
    const functions = [
      ['simulation_sessions', 'report_counts_update'],
      ['simulation_sessions', 'insight_images_sessions_update'],
      ['evidence', 'evidence_report_keys_update'],
    ];
    const original = new Map<string, string>();
    for (const [table, trigger] of functions) {
      const def = await t.db.query<{ def: string }>(
        `select pg_get_triggerdef(oid) as def from pg_trigger where tgname = $1`,
        [trigger],
      );
      original.set(trigger!, def.rows[0]!.def);
      // Same event, columns and condition; only the function is swapped.
      await t.db.exec(`drop trigger ${trigger} on ${table};
        ${def.rows[0]!.def.replace(/EXECUTE FUNCTION .*$/, 'EXECUTE FUNCTION report_triggers_test_refuse()')}`);
    }
    try {
      await t.db.query(
        `update simulation_sessions set last_used_at = now(), sort_analysis = 2, score = 50
          where uuid = $1`,
        [session.uuid],
      );
      await t.db.query(
        'update evidence set score = score, marking_pending = false where session_uuid = $1',
        [session.uuid],
      );
      // The same session's status is theirs: the swapped trigger runs and refuses.
      await assert.rejects(
        t.db.query(`update simulation_sessions set status = 'closed' where uuid = $1`, [
          session.uuid,
        ]),
        /a report trigger ran/,
      );
    } finally {
      for (const [table, trigger] of functions) {
        await t.db.exec(`drop trigger ${trigger} on ${table}; ${original.get(trigger!)};
          alter table ${table} enable always trigger ${trigger};`);
      }
      await t.db.exec('drop function report_triggers_test_refuse()');
    }
  });
});
