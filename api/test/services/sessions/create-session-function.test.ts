import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  createSessionRepository,
  type NewSession,
  type TokenLifetime,
} from '../../../src/repositories/session-repository';
import type { Db } from '../../../src/db/driver';
import { createUserRepository } from '../../../src/repositories/user-repository';
import { createSession } from '../../../src/services/sessions/create-session';
import { createSessionStatusCache } from '../../../src/services/sessions/session-status-cache';
import { buildTestApp, type TestApp } from '../../helper';
import {
  leafId,
  learner,
  otherLearner,
  productId,
  sysadmin,
  userHeaders,
} from '../../routes/api/v1/simulator/session-fixtures';

/**
 * Issue #24 point 5: a session's creation is one statement (migration 0046's `create_session`)
 * instead of a transaction of five round trips or more. Each outcome, the user lock that keeps
 * concurrent launches under the limit, the abandoned launches closed and counted again, the
 * token lifetime's condition in the count, and that nothing is written unless all of it is.
 */
describe('a session created in one statement', () => {
  let t: TestApp;
  let radiography: number;
  before(async () => {
    t = await buildTestApp();
    radiography = await productId(t.db, 'radiography');
  });
  after(() => t.close());

  const lifetime: TokenLifetime = { maxAgeSeconds: 3600, idleSeconds: 900 };

  const newSession = (overrides: Partial<NewSession> = {}): NewSession => ({
    userId: learner.sub,
    productId: radiography,
    categoryId: null,
    configuration: 'radiography.lower-limb.knee',
    configurationId: null,
    mode: 'Desktop',
    ltiLaunchId: null,
    tokenHash: randomBytes(32).toString('hex'),
    ...overrides,
  });

  const create = (maxOpen: number, overrides: Partial<NewSession> = {}) =>
    createSessionRepository(t.db).create(newSession(overrides), { ...lifetime, maxOpen });

  /** A session of the learner's, then moved to `status` and aged as given (seconds ago). */
  const existing = async (
    status: 'not_started' | 'in_progress',
    ages: { created?: number; lastUsed?: number } = {},
  ) => {
    const result = await create(1000);
    assert.ok(result.ok);
    await t.db.query(
      `update simulation_sessions
          set status = $2,
              created_at = now() - $3::integer * interval '1 second',
              last_used_at = now() - $4::integer * interval '1 second'
        where uuid = $1`,
      [result.uuid, status, ages.created ?? 0, ages.lastUsed ?? 0],
    );
    return result.uuid;
  };

  const statusOf = async (uuid: string) =>
    (
      await t.db.query<{ status: string }>(
        'select status from simulation_sessions where uuid = $1',
        [uuid],
      )
    ).rows[0]?.status;

  const sessionCount = async () =>
    (
      await t.db.query<{ count: number }>(
        'select count(*)::int as count from simulation_sessions where user_id = $1',
        [learner.sub],
      )
    ).rows[0]!.count;

  // Each test starts with no open session of the learner's.
  beforeEach(async () => {
    await t.db.query(
      `update simulation_sessions set status = 'closed', closed_at = now()
        where user_id = $1 and status in ('not_started', 'in_progress')`,
      [learner.sub],
    );
  });

  test('the checks before the write, read in one statement, decide in their old order', async () => {
    const post = async (product: number, payload: object, sub = learner.sub) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/product/${product}/session`,
        headers: await userHeaders(sub),
        payload,
      });
      return {
        status: res.statusCode,
        fields: res.statusCode === 400 ? Object.keys(res.json()).sort() : [],
      };
    };
    const unknownLaunch = randomUUID();
    const before = await sessionCount();
    // No licence for the product: 404 before the field errors and the launch.
    assert.deepEqual(
      await post(
        await productId(t.db, 'radiation-safety'),
        { configuration: 'nonsense', mode: 'VR', ltiLaunchId: unknownLaunch },
        otherLearner.sub,
      ),
      { status: 404, fields: [] },
    );
    // Field errors together, before the launch is looked at.
    assert.deepEqual(
      await post(
        radiography,
        { configuration: 'birthing.kneeling', mode: 'VR', ltiLaunchId: unknownLaunch },
        otherLearner.sub,
      ),
      { status: 400, fields: ['configuration', 'mode'] },
    );
    // Then the launch: unknown is not found.
    assert.deepEqual(
      await post(radiography, {
        configuration: 'radiography.lower-limb.knee',
        mode: 'Desktop',
        ltiLaunchId: unknownLaunch,
      }),
      { status: 404, fields: [] },
    );
    // A global administrator: any existing product, its configurations checked all the same.
    assert.deepEqual(await post(9999, { configuration: 'nonsense', mode: 'VR' }, sysadmin.sub), {
      status: 404,
      fields: [],
    });
    assert.deepEqual(
      await post(radiography, { configuration: 'nonsense', mode: 'VR' }, sysadmin.sub),
      { status: 400, fields: ['configuration'] },
    );
    assert.equal(await sessionCount(), before);
  });

  test('the use case: two statements, no transaction, the statuses cached once it is written', async () => {
    await existing('in_progress');
    const abandoned = await existing('not_started', { created: 601 });
    const statements: string[] = [];
    const counted: Db = {
      ...t.db,
      query(sql, params) {
        statements.push(sql.trim().split(/\s+/).slice(0, 4).join(' '));
        return t.db.query(sql, params);
      },
      transaction: () => Promise.reject(new Error('no transaction')),
    };
    const statuses = createSessionStatusCache(60_000);
    statuses.remember(
      { uuid: abandoned, userId: learner.sub, productId: radiography },
      'not_started',
    );
    const user = await createUserRepository(t.db).findAuthUser(learner.sub);
    assert.ok(user);
    const created = await createSession(
      {
        db: counted,
        sessionStatuses: statuses,
        sessionStatusLoads: () => Promise.reject(new Error('not loaded')),
        config: {
          maxOpenSessionsPerUser: 2,
          sessionTokenMaxAgeSeconds: lifetime.maxAgeSeconds,
          sessionTokenIdleSeconds: lifetime.idleSeconds,
        },
      },
      user,
      radiography,
      { configuration: 'radiography.lower-limb.knee', mode: 'Desktop' },
    );
    assert.equal(statements.length, 2, statements.join(' | '));
    const unloaded = () => Promise.reject(new Error('answered from memory'));
    assert.equal(
      await statuses.read(
        { uuid: abandoned, userId: learner.sub, productId: radiography },
        unloaded,
      ),
      'closed',
    );
    assert.equal(
      await statuses.read(
        { uuid: created.uuid, userId: learner.sub, productId: radiography },
        unloaded,
      ),
      'not_started',
    );
    assert.equal(await statusOf(abandoned), 'closed');
  });

  test('created: the row as given, not started, its token hash stored', async () => {
    const leaf = await leafId(t.db, 'radiography.lower-limb.knee');
    const configuration = await t.db.query<{ id: number }>(
      `select configuration_id as id from product_categories where id = $1`,
      [leaf],
    );
    const session = newSession({
      categoryId: leaf,
      configurationId: configuration.rows[0]!.id,
      mode: 'VR',
      ltiLaunchId: 'launch-7',
    });
    const result = await createSessionRepository(t.db).create(session, {
      ...lifetime,
      maxOpen: 1,
    });
    assert.ok(result.ok);
    assert.deepEqual(result.closed, []);
    const row = await t.db.query(
      `select user_id, product_id, category_id, configuration, configuration_id, mode,
              lti_launch_id, token_hash, status, closed_at
         from simulation_sessions where uuid = $1`,
      [result.uuid],
    );
    assert.deepEqual(row.rows, [
      {
        user_id: learner.sub,
        product_id: radiography,
        category_id: leaf,
        configuration: 'radiography.lower-limb.knee',
        configuration_id: configuration.rows[0]!.id,
        mode: 'VR',
        lti_launch_id: 'launch-7',
        token_hash: session.tokenHash,
        status: 'not_started',
        closed_at: null,
      },
    ]);
  });

  test('the open-session limit: refused at it, nothing written; both open statuses count', async () => {
    await existing('not_started');
    await existing('in_progress');
    const before = await sessionCount();
    assert.deepEqual(await create(2), { ok: false, reason: 'open_sessions', closed: [] });
    assert.equal(await sessionCount(), before);
    const third = await create(3);
    assert.equal(third.ok, true);
  });

  test('two concurrent creations of one learner at the limit: the user lock lets one win', async () => {
    await existing('in_progress');
    const before = await sessionCount();
    let results: Awaited<ReturnType<typeof create>>[];
    if (t.db.kind === 'postgres') {
      // Both are held at a point where, without the user lock, each would already have counted
      // one open session: the insert, behind a share lock on the table. With the lock, the
      // second waits for the user's row until the first commits, and its count then sees it.
      let racing: Promise<Awaited<ReturnType<typeof create>>[]> | undefined;
      await t.db.transaction(async (tx) => {
        await tx.query('lock table simulation_sessions in share mode');
        racing = Promise.all([create(2), create(2)]);
        for (let i = 0; ; i += 1) {
          // A transaction reads the activity once unless told to read it again.
          await tx.query('select pg_stat_clear_snapshot()');
          const waiting = await tx.query<{ count: number }>(
            `select count(*)::int as count from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (waiting.rows[0]!.count >= 2) break;
          assert.ok(i < 500, 'both creations wait');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      });
      results = await racing!;
    } else {
      // PGlite runs one statement at a time: the two can only be serial.
      results = await Promise.all([create(2), create(2)]);
    }
    assert.deepEqual(results.map((r) => r.ok).sort(), [false, true]);
    assert.equal(await sessionCount(), before + 1);
  });

  test('abandoned launches are closed to make room and the learner counted again', async () => {
    await existing('in_progress', { created: 700 });
    const abandoned = await existing('not_started', { created: 601 });
    const recent = await existing('not_started', { created: 500 });
    const result = await create(3);
    assert.ok(result.ok, 'the abandoned launch made room');
    assert.deepEqual(result.closed, [abandoned]);
    assert.equal(await statusOf(abandoned), 'closed');
    assert.equal(await statusOf(recent), 'not_started');
    const closedAt = await t.db.query(
      'select closed_at is not null as closed from simulation_sessions where uuid = $1',
      [abandoned],
    );
    assert.deepEqual(closedAt.rows, [{ closed: true }]);
  });

  test('an abandoned launch that had expired frees nothing: refused, and it is closed all the same', async () => {
    await existing('in_progress');
    await existing('in_progress');
    // Idle past the token's lifetime: it never counted.
    const expired = await existing('not_started', { created: 700, lastUsed: 901 });
    const before = await sessionCount();
    const result = await create(2);
    assert.deepEqual(result, { ok: false, reason: 'open_sessions', closed: [expired] });
    assert.equal(await statusOf(expired), 'closed');
    assert.equal(await sessionCount(), before);
  });

  test('expired sessions do not count: past the maximum age or idle too long, to the second', async () => {
    // In progress, so none of them is an abandoned launch to close.
    const tooOld = await existing('in_progress', { created: 3601 });
    const idle = await existing('in_progress', { lastUsed: 901 });
    const result = await create(1);
    assert.ok(result.ok, 'neither expired session counted');
    assert.deepEqual(result.closed, []);
    assert.equal(await statusOf(tooOld), 'in_progress');
    assert.equal(await statusOf(idle), 'in_progress');

    await t.db.query(`update simulation_sessions set status = 'closed' where uuid = $1`, [
      result.uuid,
    ]);
    await existing('in_progress', { created: 3590, lastUsed: 890 });
    assert.deepEqual(await create(1), { ok: false, reason: 'open_sessions', closed: [] });
  });

  test('a failed insert leaves nothing behind: the abandoned launch it closed stays open', async () => {
    const taken = newSession();
    assert.equal((await create(1000, { tokenHash: taken.tokenHash })).ok, true);
    await t.db.query(
      `update simulation_sessions set status = 'in_progress' where token_hash = $1`,
      [taken.tokenHash],
    );
    const abandoned = await existing('not_started', { created: 601 });
    const before = await sessionCount();
    // At the limit: the abandoned launch is closed, then the insert fails on the token hash.
    await assert.rejects(create(2, { tokenHash: taken.tokenHash }), /token_hash|unique|duplicate/i);
    assert.equal(await statusOf(abandoned), 'not_started');
    assert.equal(await sessionCount(), before);
  });
});
