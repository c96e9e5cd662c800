import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runSingleWrite, runUnitOfWork } from '../../src/services/unit-of-work';
import { createTestDatabase, type TestDatabase } from '../helper';

describe('runUnitOfWork', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await database.db.exec('create table uow_probe (n int not null)');
  });
  after(async () => {
    await database.db.close();
    await database.dispose();
  });

  async function count(): Promise<number> {
    const { rows } = await database.db.query<{ n: number }>(
      'select count(*)::int as n from uow_probe',
    );
    return rows[0]?.n ?? -1;
  }

  test('commits the work, then runs the after-commit hooks in order with the change visible', async () => {
    const seen: string[] = [];
    const result = await runUnitOfWork(database.db, async (uow) => {
      await uow.q.query('insert into uow_probe (n) values (1)');
      uow.afterCommit(async () => void seen.push(`first saw ${await count()}`));
      uow.afterCommit(() => void seen.push('second'));
      assert.deepEqual(seen, [], 'no hook runs before the commit');
      return 'done';
    });
    assert.equal(result, 'done');
    assert.deepEqual(seen, ['first saw 1', 'second']);
  });

  test('rolls back and runs no hook when the work throws', async () => {
    const before = await count();
    let ran = false;
    await assert.rejects(
      runUnitOfWork(database.db, async (uow) => {
        await uow.q.query('insert into uow_probe (n) values (2)');
        uow.afterCommit(() => void (ran = true));
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(await count(), before);
    assert.equal(ran, false);
  });

  test('a failing hook is reported and neither undoes the commit nor stops later hooks', async () => {
    const before = await count();
    const errors: unknown[] = [];
    let later = false;
    await runUnitOfWork(
      database.db,
      async (uow) => {
        await uow.q.query('insert into uow_probe (n) values (3)');
        uow.afterCommit(() => {
          throw new Error('cache gone');
        });
        uow.afterCommit(() => void (later = true));
      },
      (error) => errors.push(error),
    );
    assert.equal(await count(), before + 1);
    assert.equal(later, true);
    assert.equal(errors.length, 1);
  });

  test('a single write runs without a transaction; its hooks run after it, reads may follow it', async () => {
    const before = await count();
    const seen: string[] = [];
    const result = await runSingleWrite(database.db, async (uow) => {
      await uow.q.query('insert into uow_probe (n) values (4)');
      uow.afterCommit(async () => void seen.push(`hook saw ${await count()}`));
      const read = await uow.q.query<{ n: number }>('select count(*)::int as n from uow_probe');
      assert.deepEqual(seen, [], 'no hook runs before the work is done');
      return read.rows[0]?.n;
    });
    assert.equal(result, before + 1);
    assert.deepEqual(seen, [`hook saw ${before + 1}`]);
  });

  test('a second write is refused before it is sent, as are locking reads and scripts', async () => {
    const before = await count();
    let hooked = false;
    await assert.rejects(
      runSingleWrite(database.db, async (uow) => {
        await uow.q.query('insert into uow_probe (n) values (5)');
        uow.afterCommit(() => void (hooked = true));
        await uow.q.query('insert into uow_probe (n) values (6)');
      }),
      /second write/,
    );
    assert.equal(await count(), before + 1, 'the first write stands; the second never ran');
    assert.equal(hooked, false, 'no hook runs when the work throws');
    for (const second of [
      'select n from uow_probe for update',
      'select n from uow_probe for no key update',
      '  update uow_probe set n = n',
      'with x as (delete from uow_probe returning n) select * from x',
    ]) {
      await assert.rejects(
        runSingleWrite(database.db, async (uow) => {
          await uow.q.query('select 1');
          await uow.q.query(second);
        }),
        /second write/,
        second,
      );
    }
    assert.equal(await count(), before + 1);
    await assert.rejects(
      runSingleWrite(database.db, (uow) => uow.q.exec('delete from uow_probe')),
      /one statement/,
    );
    assert.equal(await count(), before + 1);
  });
});
