import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../helper';

/**
 * GET /readyz (issue #24 point 2): apart from /healthz, 503 with the reason while draining, when
 * the database does not answer, or when a migration of this release is missing.
 */
describe('readiness', () => {
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('a migrated instance with its database is ready', async () => {
    const res = await t.app.inject('/readyz');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ready' });
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  test('a missing migration of this release makes it unready, with the reason', async () => {
    const { rows } = await t.db.query<{ version: number; name: string }>(
      'select version, name from schema_migrations order by version desc limit 1',
    );
    const newest = rows[0]!;
    await t.db.query('delete from schema_migrations where version = $1', [newest.version]);
    try {
      const res = await t.app.inject('/readyz');
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'unavailable', reason: 'migrations' });
      // Liveness is another question: the process is fine, restarting it would not help.
      assert.equal((await t.app.inject('/healthz')).statusCode, 200);
    } finally {
      await t.db.query('insert into schema_migrations (version, name) values ($1, $2)', [
        newest.version,
        newest.name,
      ]);
    }
    assert.equal((await t.app.inject('/readyz')).statusCode, 200);
  });

  test('a draining instance is unready at once and asks keep-alive clients to go elsewhere', async () => {
    const drained = await buildTestApp();
    try {
      const runsBefore = await drained.app.metrics.jobRuns.get();
      drained.app.lifecycle.drain();
      const res = await drained.app.inject('/readyz');
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'unavailable', reason: 'draining' });
      assert.equal(res.headers.connection, 'close');
      // Requests still get their answers while draining (the ones in flight, the load balancer's late ones).
      const health = await drained.app.inject('/healthz');
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers.connection, 'close');
      // No new outbox round: a kick after the drain starts no run.
      drained.app.outboxWorker.kick();
      await drained.app.outboxWorker.idle();
      const runsAfter = await drained.app.metrics.jobRuns.get();
      const outboxRuns = (runs: typeof runsAfter) =>
        runs.values.find((v) => v.labels.job === 'outbox')?.value ?? 0;
      assert.equal(outboxRuns(runsAfter), outboxRuns(runsBefore));
    } finally {
      await drained.close();
    }
  });

  test('an unreachable database makes it unready, not a 500', async () => {
    const down = await buildTestApp();
    try {
      // The database goes away under the running app (a closed pool or PGlite instance refuses
      // every statement, as a PostgreSQL that went down does).
      await down.db.close();
      const res = await down.app.inject('/readyz');
      assert.equal(res.statusCode, 503);
      assert.deepEqual(res.json(), { status: 'unavailable', reason: 'database' });
    } finally {
      await down.close().catch(() => undefined);
    }
  });
});
