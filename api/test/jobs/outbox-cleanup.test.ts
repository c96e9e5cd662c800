import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FINISHED_ITEM_RETENTION_MS, runOutboxCleanup } from '../../src/jobs/outbox-cleanup';
import type { Queryable } from '../../src/db/driver';
import { MARK_EVIDENCE_KIND } from '../../src/services/sessions/mark-evidence';
import { CLEANED_KINDS } from '../../src/plugins/app/outbox-cleanup';
import { buildTestApp, type TestApp } from '../helper';
import { createManualClock } from '../manual-clock';

const DAY = 86_400_000;

/** An outbox row of `kind`, queued `ageMs` ago, finished `doneAgoMs` ago (null: not yet). */
async function item(db: Queryable, kind: string, ageMs: number, doneAgoMs: number | null) {
  const at = (ago: number) => new Date(Date.now() - ago).toISOString();
  const res = await db.query<{ id: string }>(
    `insert into outbox (kind, key, payload, created_at, done_at)
     values ($1, 'test:' || gen_random_uuid(), '{}', $2::timestamptz, $3::timestamptz)
     returning id::text as id`,
    [kind, at(ageMs), doneAgoMs === null ? null : at(doneAgoMs)],
  );
  return res.rows[0]!.id;
}

const exists = async (db: Queryable, id: string) =>
  (await db.query('select 1 from outbox where id = $1', [id])).rowCount === 1;

describe('the daily outbox clean-up', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  let dayOffset = 0;
  const nextDay = () => new Date(Date.now() + ++dayOffset * DAY);

  test('removes finished image markings past the retention, and nothing else', async () => {
    const old = FINISHED_ITEM_RETENTION_MS + DAY;
    const finishedLongAgo = await item(t.db, MARK_EVIDENCE_KIND, old, old - DAY);
    const finishedRecently = await item(t.db, MARK_EVIDENCE_KIND, old, DAY);
    const stillOwed = await item(t.db, MARK_EVIDENCE_KIND, 4 * old, null);
    // An account's later steps read its finished creation's progress: never removed.
    const accountCreated = await item(t.db, 'identity.create', 4 * old, 4 * old);

    const run = await runOutboxCleanup(t.db, CLEANED_KINDS, nextDay());
    assert.ok(run.ran);
    assert.ok(run.result >= 1);
    assert.equal(await exists(t.db, finishedLongAgo), false);
    assert.equal(await exists(t.db, finishedRecently), true, 'within the retention');
    assert.equal(await exists(t.db, stillOwed), true, 'the worker still owes it');
    assert.equal(await exists(t.db, accountCreated), true, 'another kind');

    // Once per day: a second check the same day does nothing.
    const day = new Date(Date.now() + dayOffset * DAY);
    const again = await item(t.db, MARK_EVIDENCE_KIND, old, old - DAY);
    assert.deepEqual(await runOutboxCleanup(t.db, CLEANED_KINDS, day), {
      ran: false,
      day: run.day,
      reason: 'done',
    });
    assert.equal(await exists(t.db, again), true);
  });

  test('started with the app: the scheduler runs it when the app is ready', async () => {
    const clock = createManualClock();
    const scheduled = await buildTestApp(
      { outboxCleanupCheckMs: DAY, outboxPollMs: 0, sessionCloseIntervalMs: 0 },
      { clock },
    );
    try {
      const old = FINISHED_ITEM_RETENTION_MS + DAY;
      const stale = await item(scheduled.db, MARK_EVIDENCE_KIND, old, old);
      await scheduled.app.ready();
      assert.equal(clock.timers(), 1, 'the clean-up is the only timer');
      await clock.settle();
      assert.equal(await exists(scheduled.db, stale), false, 'the job ran when ready');
    } finally {
      await scheduled.close();
    }
  });
});
