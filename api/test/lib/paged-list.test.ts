import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/lib/http-errors';
import { escapeLike, orderByClause, pagedList, type PagedListSpec } from '../../src/lib/paged-list';
import { migrate } from '../../src/db/migrate';
import { seedReferenceData } from '../../src/reference/seed-reference-data';
import { createMigratedTestDatabase, type TestDatabase } from '../helper';

interface Row {
  id: number;
  name: string;
  city: string | null;
}

const spec: PagedListSpec<Row, { id: number; name: string; city: string | null }> = {
  from: 'organisations o',
  select: 'o.id, o.name, o.city',
  sortable: { id: 'o.id', name: 'lower(o.name)', city: 'o.city' },
  searchable: ['o.name', 'o.city'],
  defaultOrdering: 'name',
  tieBreaker: 'o.id',
  map: (row) => ({ id: row.id, name: row.name, city: row.city }),
};

const NAMES: Array<[string, string]> = [
  ['Alpha Clinic', 'Oslo'],
  ['Beta Hospital', 'Bergen'],
  ['Gamma 100% Care', 'Oslo'],
  ['Delta_Health', 'Tromsø'],
  ['Epsilon Radiology', 'Bergen'],
];

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('expected a rejection');
}

describe('pagedList', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createMigratedTestDatabase();
    await migrate(database.db);
    await seedReferenceData(database.db);
    for (const [name, city] of NAMES) {
      await database.db.query('insert into organisations (name, city) values ($1, $2)', [
        name,
        city,
      ]);
    }
    // 25 more so there are several pages of the default size.
    for (let i = 1; i <= 25; i += 1) {
      await database.db.query('insert into organisations (name, city) values ($1, $2)', [
        `Zeta ${String(i).padStart(2, '0')}`,
        null,
      ]);
    }
  });
  after(async () => {
    await database.db.close();
    await database.dispose();
  });

  test('the first page holds 20 rows with the count and page total', async () => {
    const page = await pagedList(database.db, {}, spec);
    assert.equal(page.count, 30);
    assert.equal(page.totalPages, 2);
    assert.equal(page.results.length, 20);
    assert.equal(page.results[0]?.name, 'Alpha Clinic');
  });

  test('the last page holds the rest', async () => {
    const page = await pagedList(database.db, { page: 2 }, spec);
    assert.equal(page.results.length, 10);
    assert.equal(page.results.at(-1)?.name, 'Zeta 25');
  });

  test('pageSize is honoured and capped at 100', async () => {
    assert.equal((await pagedList(database.db, { pageSize: 7 }, spec)).totalPages, 5);
    assert.equal((await pagedList(database.db, { pageSize: 1000 }, spec)).results.length, 30);
  });

  test('ordering ascending and descending', async () => {
    const asc = await pagedList(database.db, { ordering: 'name', pageSize: 3 }, spec);
    assert.deepEqual(
      asc.results.map((r) => r.name),
      ['Alpha Clinic', 'Beta Hospital', 'Delta_Health'],
    );
    const desc = await pagedList(database.db, { ordering: '-name', pageSize: 2 }, spec);
    assert.deepEqual(
      desc.results.map((r) => r.name),
      ['Zeta 25', 'Zeta 24'],
    );
  });

  test('ordering by several columns', async () => {
    const page = await pagedList(database.db, { ordering: 'city,-name', filter: 'o' }, spec);
    const withCity = page.results.filter((r) => r.city !== null).map((r) => r.name);
    assert.deepEqual(withCity, [
      'Epsilon Radiology',
      'Beta Hospital',
      'Gamma 100% Care',
      'Alpha Clinic',
      'Delta_Health',
    ]);
  });

  test('an ordering outside the whitelist answers 400 on ordering', async () => {
    const error = await rejection(
      pagedList(database.db, { ordering: 'main_contact; drop table users' }, spec),
    );
    assert.equal(error.statusCode, 400);
    assert.deepEqual(Object.keys(error.body), ['ordering']);
    const inherited = await rejection(pagedList(database.db, { ordering: 'constructor' }, spec));
    assert.equal(inherited.statusCode, 400);
  });

  test('filter searches the declared columns case-insensitively', async () => {
    const byName = await pagedList(database.db, { filter: 'HOSPITAL' }, spec);
    assert.deepEqual(
      byName.results.map((r) => r.name),
      ['Beta Hospital'],
    );
    const byCity = await pagedList(database.db, { filter: 'oslo' }, spec);
    assert.deepEqual(
      byCity.results.map((r) => r.name),
      ['Alpha Clinic', 'Gamma 100% Care'],
    );
  });

  test('% and _ in a filter are literal characters, not wildcards', async () => {
    assert.deepEqual(
      (await pagedList(database.db, { filter: '100%' }, spec)).results.map((r) => r.name),
      ['Gamma 100% Care'],
    );
    assert.deepEqual(
      (await pagedList(database.db, { filter: '%' }, spec)).results.map((r) => r.name),
      ['Gamma 100% Care'],
    );
    assert.deepEqual(
      (await pagedList(database.db, { filter: 'a_h' }, spec)).results.map((r) => r.name),
      ['Delta_Health'],
    );
    assert.equal((await pagedList(database.db, { filter: '_' }, spec)).count, 1);
    assert.equal((await pagedList(database.db, { filter: '\\' }, spec)).count, 0);
    assert.equal(escapeLike('a%b_c\\d'), 'a\\%b\\_c\\\\d');
  });

  test('the base condition is combined with the filter', async () => {
    const page = await pagedList(
      database.db,
      { filter: 'a' },
      { ...spec, where: { sql: 'o.city = $1', params: ['Bergen'] } },
    );
    assert.deepEqual(
      page.results.map((r) => r.name),
      ['Beta Hospital', 'Epsilon Radiology'],
    );
  });

  test('a page past the last answers 404 Invalid page.', async () => {
    const error = await rejection(pagedList(database.db, { page: 3 }, spec));
    assert.equal(error.statusCode, 404);
    assert.deepEqual(error.body, { detail: 'Invalid page.' });
  });

  test('an empty list is page 1 of 1 with count 0; page 2 of it is invalid', async () => {
    const empty = await pagedList(database.db, { filter: 'no such organisation' }, spec);
    assert.deepEqual(empty, { count: 0, totalPages: 1, results: [] });
    const error = await rejection(
      pagedList(database.db, { filter: 'no such organisation', page: 2 }, spec),
    );
    assert.equal(error.statusCode, 404);
  });

  test('a never-null key is ordered without nulls last, and the tiebreak may follow the direction', () => {
    const tie = (descending: boolean) => (descending ? 'o.id desc' : 'o.id asc');
    assert.equal(
      orderByClause('-name', spec.sortable, tie, ['name']),
      'lower(o.name) desc, o.id desc',
    );
    assert.equal(
      orderByClause('city,name', spec.sortable, tie, ['name']),
      'o.city asc nulls last, lower(o.name) asc, o.id asc',
    );
    assert.equal(orderByClause('-city', spec.sortable, 'o.id'), 'o.city desc nulls last, o.id');
  });

  test('pageFrom picks the page from the narrower table and reads the same rows', async () => {
    const narrow: typeof spec = {
      ...spec,
      from: 'organisations o left join lookups l on l.id = o.country_id',
      pageFrom: { from: 'organisations o', key: 'o.id' },
      notNull: ['id', 'name'],
      tieBreaker: (descending) => (descending ? 'o.id desc' : 'o.id asc'),
    };
    for (const ordering of ['name', '-name', '-city', 'id']) {
      for (const page of [1, 2]) {
        const query = { ordering, page, pageSize: 12, filter: 'a' };
        const wide = await pagedList(database.db, query, spec);
        const viaKeys = await pagedList(database.db, query, narrow);
        assert.equal(viaKeys.count, wide.count);
        if (ordering !== '-city') assert.deepEqual(viaKeys.results, wide.results, ordering);
        else
          assert.deepEqual(
            viaKeys.results.map((r) => r.city),
            wide.results.map((r) => r.city),
          );
      }
    }
  });
});
