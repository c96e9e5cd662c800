import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config';
import { buildTestApp, type TestApp } from '../helper';
import { createManualClock } from '../manual-clock';
import {
  createSession,
  join,
  learner,
  userHeaders,
  type StartedSession,
} from '../routes/api/v1/simulator/session-fixtures';

const INVALID_TOKEN = { detail: 'Invalid session token.' };

/** Moves a session's clock: its creation and last simulator call `ago` into the past. */
async function age(t: TestApp, uuid: string, ago: { created?: string; used?: string }) {
  if (ago.created) {
    await t.db.query(
      `update simulation_sessions set created_at = now() - $2::interval where uuid = $1`,
      [uuid, ago.created],
    );
  }
  if (ago.used) {
    await t.db.query(
      `update simulation_sessions set last_used_at = now() - $2::interval where uuid = $1`,
      [uuid, ago.used],
    );
  }
}

async function status(t: TestApp, uuid: string): Promise<string | undefined> {
  const res = await t.db.query<{ status: string }>(
    'select status from simulation_sessions where uuid = $1',
    [uuid],
  );
  return res.rows[0]?.status;
}

describe('simulator session tokens expire', () => {
  const clock = createManualClock();
  let t: TestApp;
  before(async () => {
    // The timer stays off here; the job is called directly (and tested on its own below).
    // No outbox either, so that the app's clock has no timer at all unless the close job's.
    t = await buildTestApp({ sessionCloseIntervalMs: 0, outboxPollMs: 0 }, { clock });
  });
  after(() => t.close());

  test('the defaults are 24 hours after creation and 2 hours idle', () => {
    const config = loadConfig({});
    assert.equal(config.sessionTokenMaxAgeSeconds, 24 * 60 * 60);
    assert.equal(config.sessionTokenIdleSeconds, 2 * 60 * 60);
  });

  test('24 hours after creation the token is refused like an unknown one', async () => {
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    await age(t, session.uuid, { created: '23 hours 59 minutes' });
    assert.equal((await join(t, session.token)).statusCode, 200, 'a minute before');
    await age(t, session.uuid, { created: '24 hours 1 second' });
    const res = await join(t, session.token);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), INVALID_TOKEN);
    assert.equal(res.headers['www-authenticate'], 'Session');
  });

  test('after 2 hours without a simulator call the token is refused', async () => {
    const session = await createSession(t);
    await age(t, session.uuid, { used: '2 hours 1 second' });
    const res = await join(t, session.token);
    assert.equal(res.statusCode, 401);
    assert.deepEqual(res.json(), INVALID_TOKEN);
    assert.equal(await status(t, session.uuid), 'not_started', 'a refused call changes nothing');
  });

  test('every call keeps the token alive', async () => {
    const session = await createSession(t);
    await age(t, session.uuid, { used: '1 hour 59 minutes' });
    assert.equal((await join(t, session.token)).statusCode, 200);
    const row = await t.db.query<{ idle: boolean }>(
      "select last_used_at > now() - interval '1 minute' as idle from simulation_sessions where uuid = $1",
      [session.uuid],
    );
    assert.deepEqual(row.rows, [{ idle: true }]);
    await age(t, session.uuid, { used: '1 hour 59 minutes' });
    assert.equal((await join(t, session.token)).statusCode, 200, 'two hours after the first call');
  });

  describe('the close job', () => {
    test('closes open sessions past either limit and leaves the rest; running it again does nothing', async () => {
      await t.app.closeExpiredSessions();
      const make = async (ago: { created?: string; used?: string }, joined = false) => {
        const s = await createSession(t);
        if (joined) assert.equal((await join(t, s.token)).statusCode, 200);
        await age(t, s.uuid, ago);
        return s;
      };
      const oldUnstarted = await make({ created: '25 hours', used: '1 minute' });
      const idleInProgress = await make({ used: '3 hours' }, true);
      const fresh = await make({}, true);
      const freshUnstarted = await make({ created: '1 hour', used: '1 hour' });
      const oldComplete = await make({}, true);
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/simulator/session/complete',
        headers: { authorization: `Session ${oldComplete.token}` },
        payload: {},
      });
      await age(t, oldComplete.uuid, { created: '30 hours', used: '30 hours' });

      // The learner's launch screen polls meanwhile; its cached answer must not outlive the close.
      const poll = async (s: StartedSession) =>
        (
          await t.app.inject({
            url: `/api/v1/product/${s.productId}/session/${s.uuid}/status`,
            headers: await userHeaders(learner.sub),
          })
        ).json<{ status: string }>().status;
      assert.equal(await poll(idleInProgress), 'in_progress');

      const [first, second] = await Promise.all([
        t.app.closeExpiredSessions(),
        t.app.closeExpiredSessions(),
      ]);
      assert.equal(first, 2);
      assert.equal(second, 2, 'a tick during a run joins it');
      assert.equal(await t.app.closeExpiredSessions(), 0);

      assert.equal(await status(t, oldUnstarted.uuid), 'closed');
      assert.equal(await status(t, idleInProgress.uuid), 'closed');
      assert.equal(await poll(idleInProgress), 'closed');
      assert.equal(await status(t, fresh.uuid), 'in_progress');
      assert.equal(await status(t, freshUnstarted.uuid), 'not_started');
      assert.equal(await status(t, oldComplete.uuid), 'complete');
      const closedAt = await t.db.query<{ set: boolean }>(
        'select closed_at is not null as set from simulation_sessions where uuid = $1',
        [idleInProgress.uuid],
      );
      assert.deepEqual(closedAt.rows, [{ set: true }]);
    });

    test('runs on its own every SESSION_CLOSE_INTERVAL_SECONDS', async () => {
      const timedClock = createManualClock();
      const timed = await buildTestApp({ sessionCloseIntervalMs: 50 }, { clock: timedClock });
      try {
        await timed.app.ready();
        const session = await createSession(timed);
        await age(timed, session.uuid, { used: '3 hours' });
        await timedClock.advance(49);
        assert.equal(await status(timed, session.uuid), 'not_started', 'not before the interval');
        await timedClock.advance(1);
        assert.equal(await status(timed, session.uuid), 'closed');
      } finally {
        await timed.close();
      }
    });

    test('SESSION_CLOSE_INTERVAL_SECONDS=0 runs no timer', async () => {
      assert.equal(loadConfig({ SESSION_CLOSE_INTERVAL_SECONDS: '0' }).sessionCloseIntervalMs, 0);
      const session = await createSession(t);
      await age(t, session.uuid, { used: '3 hours' });
      assert.equal(clock.timers(), 0, 'no timer on the clock');
      await clock.advance(24 * 60 * 60 * 1000);
      assert.equal(await status(t, session.uuid), 'not_started');
    });
  });
});
