import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runUnitOfWork } from '../../src/services/unit-of-work';
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
});
