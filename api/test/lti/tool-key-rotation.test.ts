import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, createLocalJWKSet, jwtVerify } from 'jose';
import type { LtiJwks } from '@portal/contract';
import type { Db } from '../../src/db/driver';
import { runLtiKeyRotation } from '../../src/jobs/lti-key-rotation';
import { commandActor, runRotateKeyCommand } from '../../src/lti/rotate-key-command';
import { createToolKeys, type ToolKeys } from '../../src/lti/tool-keys';
import { SYSTEM_ACTOR } from '../../src/repositories/audit-repository';
import { createPgliteDb } from '../../src/db/pglite-driver';
import { buildTestApp, createMigratedTestDatabase, type TestDatabase } from '../helper';
import { PGLITE_TEMPLATE_ENV, scratchRoot } from '../database/template';
import { createManualClock } from '../manual-clock';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

/** What a platform does with our JWKS: verifies a token we signed at `now`. */
async function signedAt(keys: ToolKeys, now: Date) {
  const { kid, key } = await keys.signingKey(now);
  const token = await new SignJWT({ iss: 'portal' }).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
  return { kid, token };
}
const publishedAt = async (keys: ToolKeys, now: Date) => (await keys.jwks(now)).keys.map((k) => k.kid);

async function keyAudit(db: Db) {
  const res = await db.query<{ actor_id: string | null; actor_name: string; action: string; entity_id: string; after: Record<string, unknown> }>(
    `select actor_id, actor_name, action, entity_id, after from audit_log
      where entity_type = 'lti_tool_key' order by id`,
  );
  return res.rows;
}

/**
 * The tool key's rotation with pre-publication (issue #22 point 5): the timeline at fixed times,
 * the daily 90-day job, the command (its function and the process), each audited.
 */
describe('LTI tool key rotation', () => {
  let database: TestDatabase;
  let keys: ToolKeys;
  // Noon UTC, so "a day later" never crosses two UTC days.
  const t0 = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 10, 12));

  before(async () => {
    database = await createMigratedTestDatabase();
    keys = createToolKeys(database.db);
  });
  after(() => database.dispose());

  const clearKeys = async () => {
    await database.db.query('delete from lti_tool_keys');
    await database.db.query(`delete from audit_log where entity_type = 'lti_tool_key'`);
    await database.db.query(`update scheduled_jobs set last_run_on = null where name = 'lti-key-rotation'`);
  };

  test('publish next → the old key still signs → after signs_from the new one → the old one published 24 h, then gone', async () => {
    await clearKeys();
    await keys.ensure(t0);
    const old = await signedAt(keys, t0);
    assert.deepEqual(await publishedAt(keys, t0), [old.kid]);

    const rotatedAt = at(t0, HOUR);
    const rotation = await keys.rotate({ actor: commandActor('Olga Operator'), now: rotatedAt, reason: 'command' });
    assert.ok(rotation.rotated);
    assert.equal(rotation.signsFrom.toISOString(), at(rotatedAt, DAY).toISOString(), 'signs a day after it is published');
    assert.deepEqual(rotation.replaces, [old.kid]);

    // Published at once, before it signs: a platform fetching now has both.
    assert.deepEqual(await publishedAt(keys, rotatedAt), [rotation.kid, old.kid]);
    const states = (await keys.list(rotatedAt)).map((k) => [k.kid, k.state]);
    assert.deepEqual(states, [[rotation.kid, 'next'], [old.kid, 'signing']]);
    assert.equal((await keys.signingKey(rotatedAt)).kid, old.kid);
    assert.equal((await keys.signingKey(at(rotation.signsFrom, -1))).kid, old.kid, 'until the last millisecond');

    // From signs_from the new key signs; both verify with the set published meanwhile.
    const fresh = await signedAt(keys, rotation.signsFrom);
    assert.equal(fresh.kid, rotation.kid);
    const cachedBefore = createLocalJWKSet(await keys.jwks(rotatedAt));
    await jwtVerify(fresh.token, cachedBefore);
    await jwtVerify(old.token, createLocalJWKSet(await keys.jwks(rotation.signsFrom)));

    // The old key stays published RETIRED_KEY_PUBLISHED_HOURS after it stopped signing.
    const lastHour = at(rotation.signsFrom, DAY - 1);
    assert.deepEqual(await publishedAt(keys, lastHour), [rotation.kid, old.kid]);
    assert.deepEqual(await publishedAt(keys, at(rotation.signsFrom, DAY)), [rotation.kid]);
    assert.deepEqual(
      (await keys.list(at(rotation.signsFrom, DAY))).map((k) => k.state),
      ['signing', 'retired'],
    );

    const [entry, ...more] = await keyAudit(database.db);
    assert.deepEqual(more, []);
    assert.deepEqual(entry, {
      actor_id: null,
      actor_name: 'Olga Operator (lti:rotate-key, command line)',
      action: 'create',
      entity_id: rotation.kid,
      after: {
        kid: rotation.kid,
        signsFrom: rotation.signsFrom.toISOString(),
        immediately: false,
        reason: 'command',
        replaces: [old.kid],
      },
    });
  });

  test('a second rotation while a next key waits publishes nothing more', async () => {
    await clearKeys();
    await keys.ensure(t0);
    const first = await keys.rotate({ actor: SYSTEM_ACTOR, now: t0, reason: 'command' });
    assert.ok(first.rotated);
    const second = await keys.rotate({ actor: SYSTEM_ACTOR, now: at(t0, HOUR), reason: 'command' });
    assert.deepEqual(second, { rotated: false, reason: 'next_key_exists', kid: first.kid, signsFrom: first.signsFrom });
    assert.equal((await keys.list(at(t0, HOUR))).length, 2);
    assert.equal((await keyAudit(database.db)).length, 1);
  });

  test('an immediate rotation signs at once; a waiting next key is withdrawn, never signing', async () => {
    await clearKeys();
    await keys.ensure(t0);
    const old = await signedAt(keys, t0);
    const next = await keys.rotate({ actor: SYSTEM_ACTOR, now: t0, reason: 'command' });
    assert.ok(next.rotated);
    const emergencyAt = at(t0, 2 * HOUR);
    const emergency = await keys.rotate({ actor: SYSTEM_ACTOR, now: emergencyAt, immediately: true, reason: 'command' });
    assert.ok(emergency.rotated);
    assert.equal(emergency.signsFrom.toISOString(), emergencyAt.toISOString());
    assert.deepEqual(emergency.replaces, [old.kid, next.kid].sort());

    assert.equal((await keys.signingKey(emergencyAt)).kid, emergency.kid);
    // Past the withdrawn key's signs_from it still does not sign.
    assert.equal((await keys.signingKey(at(next.signsFrom, HOUR))).kid, emergency.kid);
    assert.deepEqual(await publishedAt(keys, emergencyAt), [emergency.kid, old.kid], 'the withdrawn key is not published');
    assert.deepEqual(await publishedAt(keys, at(emergencyAt, DAY)), [emergency.kid]);
    const entry = (await keyAudit(database.db)).at(-1);
    assert.equal(entry?.after.immediately, true);
  });

  describe('the scheduled rotation (every 90 days, checked daily)', () => {
    test('publishes a next key once the signing key is 90 days old, signing from tomorrow, once per day', async () => {
      await clearKeys();
      await keys.ensure(t0);
      const day89 = at(t0, 89 * DAY);
      assert.deepEqual(await runLtiKeyRotation(database.db, day89), {
        ran: true,
        day: day89.toISOString().slice(0, 10),
        result: { rotated: false, reason: 'not_due' },
      });
      const day90 = at(t0, 90 * DAY);
      const run = await runLtiKeyRotation(database.db, day90);
      assert.ok(run.ran && run.result.rotated, JSON.stringify(run));
      assert.equal(run.result.signsFrom.toISOString(), at(day90, DAY).toISOString());
      // Twice the same day (another process, a restart): nothing more.
      assert.deepEqual(await runLtiKeyRotation(database.db, at(day90, HOUR)), {
        ran: false,
        day: run.day,
        reason: 'done',
      });
      // The next day the new key signs and is young: nothing to do.
      const day91 = at(t0, 91 * DAY);
      const next = await runLtiKeyRotation(database.db, day91);
      assert.ok(next.ran && !next.result.rotated && next.result.reason === 'not_due', JSON.stringify(next));
      assert.equal((await keys.list(day91)).length, 2);

      const entries = await keyAudit(database.db);
      assert.equal(entries.length, 1);
      assert.equal(entries[0]?.actor_id, null);
      assert.equal(entries[0]?.actor_name, 'System');
      assert.equal(entries[0]?.after.reason, 'scheduled');
    });

    test('a next key published by hand is not doubled by the schedule', async () => {
      await clearKeys();
      await keys.ensure(t0);
      const day95 = at(t0, 95 * DAY);
      await keys.rotate({ actor: commandActor('ops'), now: day95, reason: 'command' });
      const run = await runLtiKeyRotation(database.db, at(day95, HOUR));
      assert.ok(run.ran && !run.result.rotated && run.result.reason === 'next_key_exists', JSON.stringify(run));
      assert.equal((await keyAudit(database.db)).length, 1);
    });

    test('processes checking at the same moment rotate once', async () => {
      await clearKeys();
      await keys.ensure(t0);
      const day100 = at(t0, 100 * DAY);
      const runs = await Promise.all([1, 2, 3].map(() => runLtiKeyRotation(database.db, day100)));
      assert.equal(runs.filter((r) => r.ran && r.result.rotated).length, 1, JSON.stringify(runs));
      assert.equal((await keys.list(day100)).length, 2);
      assert.equal((await keyAudit(database.db)).length, 1);
    });

    test('started with the app: the scheduler checks when the app is ready', async () => {
      const clock = createManualClock(new Date(Date.now() + 91 * DAY));
      const scheduled = await buildTestApp(
        { ltiKeyRotationCheckMs: DAY, outboxPollMs: 0, sessionCloseIntervalMs: 0 },
        { clock },
      );
      try {
        await scheduled.app.ready();
        assert.equal(clock.timers(), 1, 'the rotation check is the only timer');
        await clock.settle();
        const scheduledKeys = createToolKeys(scheduled.db);
        const states = (await scheduledKeys.list(clock.now())).map((k) => k.state);
        assert.deepEqual(states, ['next', 'signing'], 'the key made at start is 91 days old on this clock');
        assert.deepEqual((await keyAudit(scheduled.db)).map((e) => e.actor_name), ['System']);
        // The JWKS route publishes the next key before it signs.
        const jwks = (await scheduled.app.inject({ url: '/api/lti/jwks' })).json<LtiJwks>();
        assert.equal(jwks.keys.length, 2);
      } finally {
        await scheduled.close();
      }
    });
  });

  describe('the command (pnpm --filter @portal/api lti:rotate-key)', () => {
    test('publishes the next key and says so; --now signs at once', async () => {
      await clearKeys();
      const lines = await runRotateKeyCommand(database.db, { operator: 'Ada', immediately: false, now: t0 });
      assert.match(lines[0]!, new RegExp(`^Next key \\S+ published; it signs from ${at(t0, DAY).toISOString()}\\.$`));
      assert.deepEqual(lines.slice(2).map((l) => l.trim().split(/\s+/)[0]), ['Keys:', 'next', 'signing']);
      const again = await runRotateKeyCommand(database.db, { operator: 'Ada', immediately: false, now: t0 });
      assert.match(again[0]!, /already published/);

      const now = await runRotateKeyCommand(database.db, { operator: 'Ada', immediately: true, now: at(t0, HOUR) });
      assert.match(now[0]!, /signs now\. Platforms that cached the JWKS refuse its tokens/);
      assert.deepEqual(
        (await keyAudit(database.db)).map((e) => [e.actor_name, e.after.immediately]),
        [
          ['Ada (lti:rotate-key, command line)', false],
          ['Ada (lti:rotate-key, command line)', true],
        ],
      );
    });
  
    test('as a process: the API’s environment, its own database, the operator in the audit log', async () => {
      // Its own embedded database: the migrated template when this run has one, else a new one.
      const dir = await mkdtemp(path.join(scratchRoot(), 'portal-rotate-key-'));
      const pgliteDir = path.join(dir, 'pglite');
      const template = process.env[PGLITE_TEMPLATE_ENV];
      if (template) await cp(template, pgliteDir, { recursive: true });
      const command = (...args: string[]) =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/lti-rotate-key.ts', ...args], {
            cwd: path.resolve(import.meta.dirname, '../..'),
            // No API listens on port 9 (discard): the command may open the embedded database.
            env: { ...process.env, DATABASE_URL: '', PGLITE_DIR: pgliteDir, API_PORT: '9', LOG_LEVEL: 'silent' },
          });
          let out = '';
          let err = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
          child.on('error', reject);
          child.on('exit', (code) => resolve({ code, out, err }));
        });
      try {
        const refused = await command('--later');
        assert.equal(refused.code, 1);
        assert.match(refused.err, /--later[\s\S]*usage: pnpm --filter @portal\/api lti:rotate-key/);

        const next = await command('--operator', 'Olga Ops');
        assert.equal(next.code, 0, next.err);
        assert.match(next.out, /^Next key \S+ published; it signs from /);
        const now = await command('--operator', 'Olga Ops', '--now');
        assert.equal(now.code, 0, now.err);
        assert.match(now.out, /^New key \S+ signs now\./);

        const db = await createPgliteDb(pgliteDir);
        try {
          const entries = await keyAudit(db);
          assert.deepEqual(
            entries.map((e) => [e.actor_name, e.after.immediately]),
            [
              ['Olga Ops (lti:rotate-key, command line)', false],
              ['Olga Ops (lti:rotate-key, command line)', true],
            ],
          );
          const states = (await createToolKeys(db).list()).map((k) => k.state);
          assert.deepEqual(states.sort(), ['retired', 'retired', 'signing']);
        } finally {
          await db.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
});
});
