import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEntry, PagedResult } from '@portal/contract';
import { runLicenseExpiry } from '../../src/jobs/license-expiry';
import { authHeader, buildTestApp, type TestApp } from '../helper';
import { createManualClock } from '../manual-clock';
import { licenseWith, orgAdmin, orgId } from '../routes/api/v1/notification/notification-fixtures';

const DAY = 86_400_000;

describe('the daily licence expiry job', () => {
  let t: TestApp;
  let demo: number;
  const isActive = async (id: number) =>
    (
      await t.db.query<{ is_active: boolean }>(
        'select is_active from license_blocks where id = $1',
        [id],
      )
    ).rows[0]!.is_active;
  const expiryEntries = async (id: number) =>
    (
      await t.db.query<{
        actor_id: string | null;
        actor_name: string;
        before: unknown;
        after: unknown;
      }>(
        `select actor_id, actor_name, before, after from audit_log
          where entity_type = 'license_block' and entity_id = $1 and action = 'update'
          order by id`,
        [String(id)],
      )
    ).rows;

  before(async () => {
    t = await buildTestApp();
    demo = await orgId(t.db, 'Demo Hospital');
  });
  after(() => t.close());

  test('marks licences past their expiry inactive, once a day, each with an audit entry', async () => {
    const ended = await licenseWith(t.db, demo, { expiresInDays: -1 });
    const today = await licenseWith(t.db, demo, { expiresInDays: 0 });
    const later = await licenseWith(t.db, demo, { expiresInDays: 5 });
    const alreadyOff = await licenseWith(t.db, demo, { expiresInDays: -3, active: false });

    const first = await runLicenseExpiry(t.db);
    assert.equal(first.ran, true);
    assert.ok(first.ran && first.expired.includes(ended.id));
    assert.ok(first.ran && !first.expired.includes(alreadyOff.id));
    assert.equal(await isActive(ended.id), false);
    assert.equal(await isActive(today.id), true, 'a licence counts on its expiry day');
    assert.equal(await isActive(later.id), true);

    const entries = await expiryEntries(ended.id);
    const expiryDate = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    assert.deepEqual(entries, [
      {
        actor_id: null,
        actor_name: 'System',
        before: { licenseName: ended.name, expiryDate, isActive: true },
        after: { licenseName: ended.name, expiryDate, isActive: false },
      },
    ]);
    assert.deepEqual(await expiryEntries(alreadyOff.id), []);

    // The same day again: nothing to do, even for a licence that ended meanwhile.
    const again = await licenseWith(t.db, demo, { expiresInDays: -2 });
    assert.deepEqual(await runLicenseExpiry(t.db), { ran: false, day: first.day, reason: 'done' });
    assert.equal(await isActive(again.id), true);
    // The next day it runs again and catches up; `today` ended in between.
    const tomorrow = await runLicenseExpiry(t.db, new Date(Date.now() + DAY));
    assert.ok(tomorrow.ran);
    assert.deepEqual(
      tomorrow.expired.filter((id) => [again.id, today.id, later.id, ended.id].includes(id)),
      [today.id, again.id].sort((a, b) => a - b),
    );
    assert.equal((await expiryEntries(ended.id)).length, 1, 'no second entry for the same licence');
  });

  test('the expiry shows in the organisation’s activity, readable by its administrators', async () => {
    const ended = await licenseWith(t.db, demo, { expiresInDays: -1 });
    assert.ok((await runLicenseExpiry(t.db, new Date(Date.now() + 2 * DAY))).ran);
    const res = await t.app.inject({
      url: `/api/v1/audit?organisation=${demo}&entityType=license_block`,
      headers: await authHeader(orgAdmin.sub),
    });
    assert.equal(res.statusCode, 200, res.body);
    const entry = res
      .json<PagedResult<AuditEntry>>()
      .results.find((e) => e.entityId === String(ended.id));
    assert.ok(entry);
    assert.equal(entry.actorId, null);
    assert.equal(entry.actorName, 'System');
    assert.equal(entry.action, 'update');
    assert.equal(entry.organisation, demo);
  });

  test('processes racing for the same day run it once', async () => {
    const ended = await licenseWith(t.db, demo, { expiresInDays: -1 });
    const day = new Date(Date.now() + 3 * DAY);
    const runs = await Promise.all([1, 2, 3, 4].map(() => runLicenseExpiry(t.db, day)));
    assert.equal(runs.filter((r) => r.ran).length, 1, JSON.stringify(runs));
    assert.ok(runs.every((r) => r.ran || r.reason === 'busy' || r.reason === 'done'));
    assert.equal((await expiryEntries(ended.id)).length, 1);
  });

  test('a failed run changes nothing and the day is done on the next check', async () => {
    const ended = await licenseWith(t.db, demo, { expiresInDays: -1 });
    const day = new Date(Date.now() + 4 * DAY);
    // The audit insert fails after the update (a check for new rows only), as a crash would.
    await t.db.exec(
      `alter table audit_log add constraint test_no_system check (actor_name <> 'System') not valid`,
    );
    try {
      await assert.rejects(runLicenseExpiry(t.db, day));
    } finally {
      await t.db.exec('alter table audit_log drop constraint test_no_system');
    }
    assert.equal(await isActive(ended.id), true, 'rolled back with its audit entry');
    const retried = await runLicenseExpiry(t.db, day);
    assert.ok(retried.ran && retried.expired.includes(ended.id));
  });

  test('started with the app: the scheduler runs it when the app is ready', async () => {
    const clock = createManualClock();
    const scheduled = await buildTestApp({ licenseExpiryCheckMs: 60_000 }, { clock });
    try {
      const ended = await licenseWith(scheduled.db, await orgId(scheduled.db, 'Demo Hospital'), {
        expiresInDays: -1,
      });
      await scheduled.app.ready();
      await clock.settle();
      const row = await scheduled.db.query<{ is_active: boolean }>(
        'select is_active from license_blocks where id = $1',
        [ended.id],
      );
      assert.equal(row.rows[0]!.is_active, false, 'the job ran when ready');
    } finally {
      await scheduled.close();
    }
  });
});
