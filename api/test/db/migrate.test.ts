import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, readMigrations } from '../../src/db/migrate';
import { seedDemoData } from '../../src/demo/seed-demo-data';
import { seedReferenceData } from '../../src/reference/seed-reference-data';
import { createTestDatabase, type TestDatabase } from '../helper';

describe('migrations', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await database.db.close();
    await database.dispose();
  });

  test('apply in order once; a second run applies nothing', async () => {
    const first = await migrate(database.db);
    assert.deepEqual(
      first,
      (await readMigrations()).map((m) => m.name),
    );
    assert.deepEqual(await migrate(database.db), []);
    const versions = await database.db.query<{ version: number }>(
      'select version from schema_migrations order by version',
    );
    assert.deepEqual(
      versions.rows.map((r) => r.version),
      (await readMigrations()).map((m) => m.version),
    );
  });

  test('seeding twice leaves the same rows', async () => {
    const counts = async () =>
      (
        await database.db.query<Record<string, number>>(
          `select (select count(*)::int from lookups) as lookups, (select count(*)::int from roles) as roles,
                  (select count(*)::int from permissions) as permissions,
                  (select count(*)::int from role_permissions) as role_permissions,
                  (select count(*)::int from organisations) as organisations, (select count(*)::int from users) as users`,
        )
      ).rows[0];
    await seedReferenceData(database.db);
    await seedDemoData(database.db);
    const once = await counts();
    await seedReferenceData(database.db);
    await seedDemoData(database.db);
    assert.deepEqual(await counts(), once);
    assert.equal(once?.permissions, 21);
    assert.equal(once?.roles, 4);
    // The five demo accounts and Demo Brightspace College's three.
    assert.equal(once?.users, 8);
    assert.equal(once?.organisations, 3);
  });

  test('re-seeding keeps what users changed', async () => {
    await database.db.query(`update users set language = 'de' where email = 'learner@demo.test'`);
    await seedDemoData(database.db);
    const res = await database.db.query<{ language: string }>(
      `select language from users where email = 'learner@demo.test'`,
    );
    assert.equal(res.rows[0]?.language, 'de');
  });

  test('a failing migration is rolled back and not recorded', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    try {
      await writeFile(path.join(dir, '0001_ok.sql'), 'create table probe_ok (id int);');
      await writeFile(
        path.join(dir, '0002_broken.sql'),
        'create table probe_broken (id int); select nonsense from nowhere;',
      );
      await database.db.exec('drop table schema_migrations');
      await assert.rejects(migrate(database.db, dir));
      const recorded = await database.db.query<{ name: string }>(
        'select name from schema_migrations',
      );
      assert.deepEqual(
        recorded.rows.map((r) => r.name),
        ['0001_ok.sql'],
      );
      const broken = await database.db.query(
        `select 1 from information_schema.tables where table_name = 'probe_broken'`,
      );
      assert.equal(broken.rowCount, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a file name without a version is refused', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrations-'));
    try {
      await writeFile(path.join(dir, 'add_things.sql'), 'select 1;');
      await assert.rejects(readMigrations(dir), /0001_name\.sql/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
