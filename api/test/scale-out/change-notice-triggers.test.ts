import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CHANGE_CHANNEL, parseChangeNotice, type ChangeNotice } from '../../src/db/change-notices';
import { account, createMigratedTestDatabase, type TestDatabase } from '../helper';
import { seedDemoData } from '../../src/demo/seed-demo-data';
import { seedReferenceData } from '../../src/reference/seed-reference-data';
import { NEEDS_POSTGRES } from './two-instances';

test('notice payloads: known kinds only, ids as the caches key them', () => {
  assert.deepEqual(parseChangeNotice('{"k":"user","id":"u-1"}'), { kind: 'user', id: 'u-1' });
  assert.deepEqual(parseChangeNotice('{"k":"organisation","id":"12"}'), { kind: 'organisation', id: 12 });
  assert.deepEqual(parseChangeNotice('{"k":"session","id":"s"}'), { kind: 'session', id: 's' });
  assert.deepEqual(parseChangeNotice('{"k":"session","id":"s","s":"complete"}'), {
    kind: 'session',
    id: 's',
    status: 'complete',
  });
  // A status this process does not know only says that the session changed.
  assert.deepEqual(parseChangeNotice('{"k":"session","id":"s","s":"archived"}'), { kind: 'session', id: 's' });
  assert.deepEqual(parseChangeNotice('{"k":"all"}'), { kind: 'all' });
  for (const payload of ['', 'x', '{"k":"user"}', '{"k":"organisation","id":"x"}', '{"k":"other","id":"1"}', undefined]) {
    assert.equal(parseChangeNotice(payload), null, String(payload));
  }
});

/** Migration 0030's triggers, heard on a connection of the test's own. */
describe('change notices from the database', { skip: NEEDS_POSTGRES }, () => {
  let database: TestDatabase;
  let listener: pg.Client;
  const heard: ChangeNotice[] = [];
  const learner = account('learner', 'Demo Hospital');

  /** What arrives within a moment after `write`. */
  const noticesOf = async (write: () => Promise<unknown>) => {
    heard.length = 0;
    await write();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return [...heard];
  };

  before(async () => {
    database = await createMigratedTestDatabase();
    await seedReferenceData(database.db);
    await seedDemoData(database.db);
    listener = database.db.dedicatedClient!();
    await listener.connect();
    listener.on('notification', (m) => {
      if (m.channel !== CHANGE_CHANNEL) return;
      const notice = parseChangeNotice(m.payload);
      if (notice) heard.push(notice);
    });
    await listener.query(`listen ${CHANGE_CHANNEL}`);
  });
  after(async () => {
    await listener?.end();
    await database?.db.close();
    await database?.dispose();
  });

  test('a committed change is announced once; a rolled-back one never', async () => {
    assert.deepEqual(
      await noticesOf(() => database.db.query(`update users set language = 'de' where id = $1`, [learner.sub])),
      [{ kind: 'user', id: learner.sub }],
    );
    const rolledBack = await noticesOf(() =>
      database.db
        .transaction(async (tx) => {
          await tx.query(`update users set language = 'en' where id = $1`, [learner.sub]);
          throw new Error('roll back');
        })
        .catch(() => undefined),
    );
    assert.deepEqual(rolledBack, []);
    // A write that changes nothing the caches hold says nothing.
    assert.deepEqual(
      await noticesOf(() => database.db.query(`update organisations set city = 'Elsewhere' where name = 'Demo Hospital'`)),
      [],
    );
  });

  test('a session’s status change is announced with the new status (0041)', async () => {
    const uuid = randomUUID();
    await database.db.query(
      `insert into simulation_sessions (uuid, user_id, product_id, configuration, mode, token_hash)
       select $1, $2, id, 'knee', 'Desktop', $3 from products order by id limit 1`,
      [uuid, learner.sub, randomUUID()],
    );
    assert.deepEqual(
      await noticesOf(() => database.db.query(`update simulation_sessions set status = 'in_progress' where uuid = $1`, [uuid])),
      [{ kind: 'session', id: uuid, status: 'in_progress' }],
    );
    // Anything else about the session is not the polled status.
    assert.deepEqual(
      await noticesOf(() => database.db.query(`update simulation_sessions set score = 50 where uuid = $1`, [uuid])),
      [],
    );
  });

  test("a launch is announced when what whoami reads of it changes or it goes (0048)", async () => {
    const id = randomUUID();
    const launch = () =>
      database.db.query(
        `insert into lti_launches (id, platform_id, deployment_id, message_type, platform_sub, user_id)
         select $1, id, 'd', 'LtiResourceLinkRequest', 'sub-1', $2 from lti_platforms order by id limit 1`,
        [id, learner.sub],
      );
    assert.deepEqual(await noticesOf(launch), [{ kind: 'user', id: learner.sub }]);
    assert.deepEqual(
      await noticesOf(() => database.db.query(`update lti_launches set brightspace_user_id = 'd2l-7' where id = $1`, [id])),
      [{ kind: 'user', id: learner.sub }],
    );
    // The grade service's endpoint is not the cache's.
    assert.deepEqual(
      await noticesOf(() => database.db.query(`update lti_launches set ags_endpoint = '{}'::jsonb where id = $1`, [id])),
      [],
    );
    assert.deepEqual(
      await noticesOf(() => database.db.query('delete from lti_launches where id = $1', [id])),
      [{ kind: 'user', id: learner.sub }],
    );
  });

  test('a transaction changing many rows announces 200 and then "everything"', async () => {
    const ids = Array.from({ length: 250 }, () => randomUUID());
    await database.db.query(
      `insert into users (id, email, first_name, last_name, role_id)
       select id, id || '@bulk.test', 'Bulk', 'User', (select id from roles where name = 'learner')
         from unnest($1::uuid[]) as id`,
      [ids],
    );
    const notices = await noticesOf(() =>
      database.db.query(`update users set last_name = 'Renamed' where email like '%@bulk.test'`),
    );
    assert.equal(notices.length, 201);
    assert.equal(notices.filter((n) => n.kind === 'user').length, 200);
    assert.deepEqual(notices.at(-1), { kind: 'all' });
  });
});
