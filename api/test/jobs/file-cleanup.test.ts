import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Queryable } from '../../src/db/driver';
import { runFileCleanup, UNSAVED_FILE_MAX_AGE_MS } from '../../src/jobs/file-cleanup';
import type { Storage } from '../../src/storage/storage';
import { buildTestApp, type TestApp } from '../helper';
import { createManualClock } from '../manual-clock';
import {
  createdDownload,
  productId,
  saveDownload,
  sysAdmin,
  uploadedInstaller,
} from '../routes/api/v1/product/simulation-download-fixtures';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A file row with its bytes in the store, `ageMs` old. */
async function storedFile(
  t: TestApp,
  { kind, state, ageMs }: { kind: string; state: string; ageMs: number },
) {
  const id = randomUUID();
  const key = `${kind}/${id}.bin`;
  await t.app.storage.put(key, Buffer.from(`bytes of ${id}`));
  await t.db.query(
    `insert into files (id, kind, original_name, mime_type, size, storage_key, state, created_at)
     values ($1, $2, 'file.bin', 'application/octet-stream', 20, $3, $4, $5::timestamptz)`,
    [id, kind, key, state, new Date(Date.now() - ageMs).toISOString()],
  );
  return { id, key };
}

const rowExists = async (db: Queryable, id: string) =>
  (await db.query('select 1 from files where id = $1', [id])).rowCount === 1;
const bytesExist = async (storage: Storage, key: string) => {
  const opened = await storage.open(key);
  opened?.stream.destroy();
  return opened !== null;
};

describe('the daily file clean-up', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  // Each test runs "its" day: the job runs once per UTC day.
  let dayOffset = 0;
  const nextDay = () => new Date(Date.now() + ++dayOffset * DAY);

  test('removes stale unsaved uploads and replaced installers, rows and bytes; keeps what records use', async () => {
    const staleConfig = await storedFile(t, {
      kind: 'sim-config',
      state: 'uploaded',
      ageMs: DAY + 2 * HOUR,
    });
    const staleInstaller = await storedFile(t, {
      kind: 'sim-installation-file',
      state: 'uploading',
      ageMs: 3 * DAY,
    });
    const staleCsv = await storedFile(t, { kind: 'user', state: 'uploaded', ageMs: 2 * DAY });
    const freshConfig = await storedFile(t, { kind: 'sim-config', state: 'uploaded', ageMs: HOUR });
    // A users CSV stays once saved: it belongs to no record, but to the bulk add that used it.
    const savedCsv = await storedFile(t, { kind: 'user', state: 'saved', ageMs: 5 * DAY });

    // An installer replaced through the API: the version now names the second upload.
    const radiography = await productId(t.db, 'radiography');
    const first = await uploadedInstaller(t);
    const version = await createdDownload(t, radiography, { fileId: first.id });
    const second = await uploadedInstaller(t);
    const replaced = await saveDownload(
      t,
      sysAdmin.sub,
      radiography,
      {
        version: version.version,
        operatingSystem: version.operatingSystem,
        fileUrl: version.fileUrl,
        fileId: second.id,
      },
      version.id,
    );
    assert.equal(replaced.statusCode, 200, replaced.body);
    const keyOf = async (id: string) =>
      (
        await t.db.query<{ storage_key: string }>('select storage_key from files where id = $1', [
          id,
        ])
      ).rows[0]!.storage_key;
    const firstKey = await keyOf(first.id);
    const secondKey = await keyOf(second.id);
    // The seeded configurations' files are saved and in use.
    const inUse = (
      await t.db.query<{ id: string; storage_key: string }>(
        `select f.id::text as id, f.storage_key from files f
          join product_configurations c on c.config_file_id = f.id limit 1`,
      )
    ).rows[0]!;

    // Today, so that "an hour old" is what the job sees; the other tests run later days.
    const run = await runFileCleanup(t.db, t.app.storage);
    assert.ok(run.ran);
    const removedIds = run.removed.map((r) => r.id);
    for (const gone of [staleConfig, staleInstaller, staleCsv]) {
      assert.ok(removedIds.includes(gone.id), gone.key);
      assert.equal(await rowExists(t.db, gone.id), false, gone.key);
      assert.equal(await bytesExist(t.app.storage, gone.key), false, gone.key);
    }
    assert.ok(removedIds.includes(first.id), 'the replaced installer');
    assert.equal(await rowExists(t.db, first.id), false);
    assert.equal(await bytesExist(t.app.storage, firstKey), false);

    for (const kept of [
      freshConfig,
      savedCsv,
      { id: second.id, key: secondKey },
      { id: inUse.id, key: inUse.storage_key },
    ]) {
      assert.ok(!removedIds.includes(kept.id), kept.key);
      assert.equal(await rowExists(t.db, kept.id), true, kept.key);
      assert.equal(await bytesExist(t.app.storage, kept.key), true, kept.key);
    }
    // The version still offers its (new) installer.
    const stored = await t.db.query<{ file_id: string }>(
      'select file_id::text as file_id from simulation_downloads where id = $1',
      [version.id],
    );
    assert.equal(stored.rows[0]!.file_id, second.id);
  });

  test('runs once a day; an upload that turns stale meanwhile waits for the next day', async () => {
    const day = nextDay();
    assert.ok((await runFileCleanup(t.db, t.app.storage, day)).ran);
    const stale = await storedFile(t, {
      kind: 'sim-config-translation',
      state: 'uploaded',
      ageMs: UNSAVED_FILE_MAX_AGE_MS + HOUR,
    });
    assert.deepEqual(await runFileCleanup(t.db, t.app.storage, day), {
      ran: false,
      day: day.toISOString().slice(0, 10),
      reason: 'done',
    });
    assert.equal(await rowExists(t.db, stale.id), true);
    const next = await runFileCleanup(t.db, t.app.storage, nextDay());
    assert.ok(next.ran && next.removed.some((r) => r.id === stale.id));
  });

  test('processes racing for the same day run it once', async () => {
    const stale = await storedFile(t, { kind: 'sim-config', state: 'uploaded', ageMs: 2 * DAY });
    const day = nextDay();
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => runFileCleanup(t.db, t.app.storage, day)),
    );
    assert.equal(runs.filter((r) => r.ran).length, 1, JSON.stringify(runs));
    assert.ok(runs.every((r) => r.ran || r.reason === 'busy' || r.reason === 'done'));
    assert.equal(await rowExists(t.db, stale.id), false);
  });

  test('bytes the store cannot remove are reported and do not stop the rest', async () => {
    const stuck = await storedFile(t, { kind: 'sim-config', state: 'uploaded', ageMs: 2 * DAY });
    const other = await storedFile(t, { kind: 'sim-config', state: 'uploaded', ageMs: 2 * DAY });
    const failing: Storage = {
      ...t.app.storage,
      remove: async (key) => {
        if (key === stuck.key) throw new Error('store unavailable');
        await t.app.storage.remove(key);
      },
    };
    const reported: string[] = [];
    const run = await runFileCleanup(t.db, failing, nextDay(), (key) => reported.push(key));
    assert.ok(run.ran);
    assert.deepEqual(reported, [stuck.key]);
    assert.equal(await rowExists(t.db, stuck.id), false, 'the row goes with the run');
    assert.equal(await bytesExist(t.app.storage, other.key), false);
  });

  test('started with the app: the scheduler runs it when the app is ready', async () => {
    const clock = createManualClock();
    // Only this job's timer: two days of the outbox's 5 s poll would be 34 560 ticks to replay.
    const scheduled = await buildTestApp(
      {
        fileCleanupCheckMs: DAY,
        outboxPollMs: 0,
        sessionCloseIntervalMs: 0,
        licenseExpiryCheckMs: 0,
      },
      { clock },
    );
    try {
      const stale = await storedFile(scheduled, {
        kind: 'sim-config',
        state: 'uploaded',
        ageMs: 2 * DAY,
      });
      await scheduled.app.ready();
      assert.equal(clock.timers(), 1, 'the clean-up is the only timer');
      await clock.settle();
      assert.equal(await rowExists(scheduled.db, stale.id), false, 'the job ran when ready');
      assert.equal(await bytesExist(scheduled.app.storage, stale.key), false);
      // The next check, a day later on the app's clock, is the next day's run.
      const later = await storedFile(scheduled, {
        kind: 'sim-config',
        state: 'uploaded',
        ageMs: 0,
      });
      await clock.advance(DAY);
      assert.equal(await rowExists(scheduled.db, later.id), true, 'a day old is not stale yet');
      await clock.advance(DAY);
      assert.equal(
        await rowExists(scheduled.db, later.id),
        false,
        'the timer ran it the day after',
      );
    } finally {
      await scheduled.close();
    }
  });
});
