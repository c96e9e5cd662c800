import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../src/db/migrate';
import { seedDemoData } from '../../src/demo/seed-demo-data';
import { seedReferenceData } from '../../src/reference/seed-reference-data';
import { seedDemoDownloads, zipOf } from '../../src/demo/downloads';
import { createLocalStorage } from '../../src/storage/local-storage';
import { createMigratedTestDatabase, type TestDatabase } from '../helper';

describe('demo installers', () => {
  let database: TestDatabase;
  const storage = createLocalStorage({
    dir: mkdtempSync(join(tmpdir(), 'portal-seed-test-')),
    ttlSeconds: 60,
  });
  before(async () => {
    database = await createMigratedTestDatabase();
    await migrate(database.db);
    await seedReferenceData(database.db);
    await seedDemoData(database.db);
  });
  after(async () => {
    await database.db.close();
    await database.dispose();
  });

  const rows = async () =>
    (
      await database.db.query<{
        code: string;
        version: string;
        os: string;
        active: boolean;
        key: string;
        state: string;
        size: number;
      }>(
        `select p.code, d.version, d.operating_system as os, d.is_active as active,
                f.storage_key as key, f.state, f.size::int as size
           from simulation_downloads d join products p on p.id = d.product_id
           join files f on f.id = d.file_id and f.kind = 'sim-installation-file'
          order by p.sort, d.version desc, d.operating_system desc`,
      )
    ).rows;

  test('every product gets a current Windows and macOS installer and an older withdrawn one', async () => {
    const products = (await database.db.query('select id from products')).rows.length;
    assert.ok(products >= 3);
    assert.equal(await seedDemoDownloads(database.db, storage), products * 4);
    const seeded = await rows();
    assert.equal(seeded.length, products * 4);
    assert.deepEqual(
      seeded
        .filter((r) => r.code === 'radiography')
        .map((r) => [r.version, r.os, r.active, r.state]),
      [
        ['2.4.1', 'windows', true, 'saved'],
        ['2.4.1', 'mac', true, 'saved'],
        ['2.3.0', 'windows', false, 'saved'],
        ['2.3.0', 'mac', false, 'saved'],
      ],
    );
    for (const row of seeded) {
      const stored = await storage.open(row.key);
      assert.ok(stored, row.key);
      assert.equal(stored.size, row.size);
      assert.ok(row.size < 4096);
      stored.stream.destroy();
    }
  });

  test('seeding again adds nothing, keeps what administrators changed, and restores lost bytes', async () => {
    await database.db.query(
      `update simulation_downloads set is_active = false where version = '2.4.1'`,
    );
    const [first] = await rows();
    await storage.remove(first!.key);
    assert.equal(await seedDemoDownloads(database.db, storage), 0);
    const again = await rows();
    assert.ok(again.every((r) => !r.active));
    const restored = await storage.open(first!.key);
    assert.ok(restored);
    restored.stream.destroy();
  });

  test('the installer is a ZIP archive any tool can open', () => {
    const zip = zipOf('README.txt', Buffer.from('hello'));
    assert.equal(zip.readUInt32LE(0), 0x04034b50);
    assert.equal(zip.readUInt16LE(8), 0, 'stored, not compressed');
    const nameLength = zip.readUInt16LE(26);
    const size = zip.readUInt32LE(18);
    assert.equal(zip.subarray(30, 30 + nameLength).toString(), 'README.txt');
    assert.equal(zip.subarray(30 + nameLength, 30 + nameLength + size).toString(), 'hello');
    const end = zip.length - 22;
    assert.equal(zip.readUInt32LE(end), 0x06054b50);
    assert.equal(zip.readUInt32LE(zip.readUInt32LE(end + 16)), 0x02014b50);
  });
});
