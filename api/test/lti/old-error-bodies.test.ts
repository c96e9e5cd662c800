import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, MIGRATIONS_DIR, readMigrations } from '../../src/db/migrate';
import { createTestDatabase, type TestDatabase } from '../helper';

/**
 * Grade errors stored before issue #20 kept the first 300 characters of the platform's answer;
 * migration 0023 strips them from the outbox and the audit log (which administrators read), so
 * an upgraded installation shows no old body either.
 */
describe('migration 0023: old grade errors lose the platform’s answer', () => {
  let database: TestDatabase;
  let earlier: string;
  before(async () => {
    database = await createTestDatabase();
    earlier = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    for (const m of await readMigrations()) {
      if (m.version < 23) await copyFile(path.join(MIGRATIONS_DIR, m.name), path.join(earlier, m.name));
    }
    await migrate(database.db, earlier);
  });
  after(async () => {
    await database.db.close();
    await database.dispose();
    await rm(earlier, { recursive: true, force: true });
  });

  test('the status stays, the body goes; other errors are left as they were', async () => {
    const body = '{"error":"invalid","trace":"at Score (internal.lms:8443/?token=s3cr3t)\nline 2"}';
    await database.db.query(
      `insert into outbox (kind, key, payload, last_error) values
         ('lti.score', 'a', '{}', $1), ('lti.score', 'b', '{}', $2),
         ('lti.score', 'c', '{}', 'post score: connect ECONNREFUSED 10.0.0.1:443'),
         ('identity.invite', 'd', '{}', $3)`,
      [
        `post score: HTTP 400 ${body}`,
        `gave up after 100 attempts; last: post score: HTTP 503 ${body}`,
        `identity: HTTP 500 kept`,
      ],
    );
    await database.db.query(
      `insert into audit_log (actor_name, actor_email, action, entity_type, entity_id, after)
       values ('System', '', 'post_failed', 'lti_score', 's1', $1::jsonb)`,
      [JSON.stringify({ learner: 'Lena', httpStatus: 400, error: `post score: HTTP 400 ${body}` })],
    );
    await migrate(database.db);
    const outbox = await database.db.query<{ key: string; last_error: string }>(
      'select key, last_error from outbox order by key',
    );
    assert.deepEqual(
      outbox.rows.map((r) => r.last_error),
      [
        'post score: HTTP 400',
        'gave up after 100 attempts; last: post score: HTTP 503',
        'post score: connect ECONNREFUSED 10.0.0.1:443',
        'identity: HTTP 500 kept',
      ],
    );
    const audit = await database.db.query<{ after: Record<string, unknown> }>(
      `select after from audit_log where entity_type = 'lti_score'`,
    );
    assert.deepEqual(audit.rows[0]!.after, {
      learner: 'Lena',
      httpStatus: 400,
      error: 'post score: HTTP 400',
    });
  });
});
