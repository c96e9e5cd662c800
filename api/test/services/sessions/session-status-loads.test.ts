import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../src/db/driver';
import { createSessionStatusLoads } from '../../../src/repositories/session-repository';
import { buildTestApp, type TestApp } from '../../helper';
import {
  createSession,
  join,
  otherLearner,
  type StartedSession,
} from '../../routes/api/v1/simulator/session-fixtures';

/**
 * Issue #24 point 2: the polls that miss the status cache are loaded together, one statement for
 * all that arrive while the last one is out, each with its own owner check.
 */
describe('session status loads', () => {
  let t: TestApp;
  let mine: StartedSession;
  let joined: StartedSession;
  let others: StartedSession;
  let ownerOf: (session: StartedSession) => Promise<string>;

  before(async () => {
    t = await buildTestApp();
    mine = await createSession(t);
    joined = await createSession(t);
    assert.equal((await join(t, joined.token)).statusCode, 200);
    others = await createSession(t, { sub: otherLearner.sub });
    ownerOf = async (session) =>
      (
        await t.db.query<{ user_id: string }>(
          'select user_id from simulation_sessions where uuid = $1',
          [session.uuid],
        )
      ).rows[0]!.user_id;
  });
  after(() => t?.close());

  test('one statement answers every poll of a turn, each for its own owner only', async () => {
    let statements = 0;
    const counting: Queryable = {
      query: (sql, params) => {
        statements += 1;
        return t.db.query(sql, params);
      },
      exec: (sql) => t.db.exec(sql),
    };
    const load = createSessionStatusLoads(counting);
    const learnerId = await ownerOf(mine);
    const otherId = await ownerOf(others);
    const key = (session: StartedSession, userId = learnerId) => ({
      uuid: session.uuid,
      userId,
      productId: session.productId,
    });
    const answers = await Promise.all([
      load(key(mine)),
      load(key(joined)),
      load(key(mine)),
      // Another learner's session, asked for by this learner: not found, as the route says.
      load(key(others)),
      load(key(others, otherId)),
      load({ ...key(mine), productId: mine.productId + 1 }),
      load({ ...key(mine), uuid: randomUUID() }),
    ]);
    assert.deepEqual(answers, [
      'not_started',
      'in_progress',
      'not_started',
      null,
      'not_started',
      null,
      null,
    ]);
    assert.equal(statements, 1);
  });

  test('a key no row can match answers null without failing the others', async () => {
    const load = createSessionStatusLoads(t.db);
    const learnerId = await ownerOf(mine);
    const answers = await Promise.all([
      load({ uuid: 'not-a-uuid', userId: learnerId, productId: mine.productId }),
      load({ uuid: mine.uuid, userId: 'nobody', productId: mine.productId }),
      load({ uuid: mine.uuid, userId: learnerId, productId: 2 ** 40 }),
      load({ uuid: mine.uuid, userId: learnerId, productId: mine.productId }),
    ]);
    assert.deepEqual(answers, [null, null, null, 'not_started']);
  });
});
