import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { INVALID_PAGE, type LearnerReportRow, type PagedResult } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import { createReport, deleteAllReports } from '../../../../factories/reports';

/**
 * The learner list filter looks up what matches first (products, categories, configurations and
 * — for an educator — the users of their own organisation) and reads the reports by those values
 * (issue #11 point 4). These tests hold it to what the filter means: every report of the scope
 * whose product, session or learner matches, each once, and nothing outside the scope.
 */
describe('report list filter', () => {
  let t: TestApp;
  const educator = account('educator', 'Demo Hospital');
  const sysadmin = account('sys admin');
  const learner = account('learner', 'Demo Hospital');

  const list = async (sub: string, query: string) => {
    const res = await t.app.inject({
      url: `/api/v1/report/learner?${query}`,
      headers: await authHeader(sub),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<PagedResult<LearnerReportRow>>();
  };
  /** Every page of a filtered list, in order, two rows a page. */
  const allPages = async (sub: string, filter: string) => {
    const first = await list(sub, `filter=${encodeURIComponent(filter)}&pageSize=2`);
    const ids = first.results.map((r) => r.id);
    for (let page = 2; page <= first.totalPages; page++) {
      const next = await list(sub, `filter=${encodeURIComponent(filter)}&pageSize=2&page=${page}`);
      assert.equal(next.count, first.count);
      ids.push(...next.results.map((r) => r.id));
    }
    return { count: first.count, ids };
  };
  /** A learner of the named organisation, written straight to the database. */
  const addLearner = async (firstName: string, lastName: string, organisation: string) => {
    const id = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id, language)
       values ($1, $2, $3, $4, (select id from organisations where name = $5),
               (select id from roles where name = 'learner'), 'en')`,
      [id, `search-${id}@search.test`, firstName, lastName, organisation],
    );
    return id;
  };

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(() => deleteAllReports(t.db));

  test('a filter matching a product and a learner counts each report once, within the scope', async () => {
    const tag = randomUUID().slice(0, 8);
    // The learner's name contains the product's name too.
    const here = await addLearner('Sam', `Radiography-${tag}`, 'Demo Hospital');
    const elsewhere = await addLearner('Sam', `Radiography-${tag}`, 'Other College');
    const productOnly = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: 'Knee',
    });
    const nameOnly = await createReport(t.db, {
      userId: here,
      product: 'birthing',
      category: 'All fours',
    });
    const both = await createReport(t.db, {
      userId: here,
      product: 'radiography',
      category: 'Hip',
    });
    const otherOrganisation = await createReport(t.db, {
      userId: elsewhere,
      product: 'birthing',
      category: 'Kneeling',
    });

    const educators = await allPages(educator.sub, 'radiography');
    assert.equal(educators.count, 3);
    assert.deepEqual(educators.ids, [both.id, nameOnly.id, productOnly.id]);

    const everyone = await allPages(sysadmin.sub, 'RADIOGRAPHY');
    assert.equal(everyone.count, 4);
    assert.deepEqual(everyone.ids, [otherOrganisation.id, both.id, nameOnly.id, productOnly.id]);

    // By the name alone: the namesake of the other organisation stays out of the educator's list.
    const byName = await allPages(educator.sub, `sam radiography-${tag}`);
    assert.deepEqual(byName, { count: 2, ids: [both.id, nameOnly.id] });
    const byNameEveryone = await allPages(sysadmin.sub, `Sam Radiography-${tag}`);
    assert.deepEqual(byNameEveryone, {
      count: 3,
      ids: [otherOrganisation.id, both.id, nameOnly.id],
    });
  });

  test('a session matches by its category, or by its configuration when it has none', async () => {
    const knee = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: 'Knee',
    });
    // Without a category, a configuration that reads like the category in other letters.
    const bare = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: null,
      configuration: 'KNEE',
    });
    // A report with a category is not found by its configuration: it shows the category.
    await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: 'Hip',
      configuration: 'radiography.knee-lookalike',
    });
    const found = await list(educator.sub, 'filter=kNeE');
    assert.deepEqual(
      found.results.map((r) => [r.id, r.session]),
      [
        [bare.id, 'KNEE'],
        [knee.id, 'Knee'],
      ],
    );
    assert.equal(found.count, 2);

    const custom = await createReport(t.db, {
      userId: learner.sub,
      product: 'radiography',
      category: null,
      configuration: 'radiography.custom-study',
    });
    const byConfiguration = await list(educator.sub, 'filter=CUSTOM-STUDY');
    assert.deepEqual(
      byConfiguration.results.map((r) => r.id),
      [custom.id],
    );
    assert.equal(byConfiguration.count, 1);
  });

  test('a filter that matches nothing is an empty first page and no second one', async () => {
    await createReport(t.db, { userId: learner.sub, product: 'radiography', category: 'Knee' });
    const none = await list(educator.sub, `filter=${randomUUID()}`);
    assert.deepEqual(none, { count: 0, totalPages: 1, results: [] });
    const res = await t.app.inject({
      url: `/api/v1/report/learner?filter=${randomUUID()}&page=2`,
      headers: await authHeader(educator.sub),
    });
    assert.equal(res.statusCode, 404, res.body);
    assert.equal(res.json<{ detail: string }>().detail, INVALID_PAGE);
  });

  test('a learner moved to another organisation is found by that organisation only', async () => {
    const tag = randomUUID().slice(0, 8);
    const mover = await addLearner('Moving', `Learner-${tag}`, 'Other College');
    const report = await createReport(t.db, { userId: mover, product: 'birthing' });
    assert.equal((await list(educator.sub, `filter=Learner-${tag}`)).count, 0);

    await t.db.query(
      `update users set organisation_id = (select id from organisations where name = 'Demo Hospital')
        where id = $1`,
      [mover],
    );
    const found = await list(educator.sub, `filter=Learner-${tag}`);
    assert.deepEqual(
      found.results.map((r) => [r.id, r.user]),
      [[report.id, `Moving Learner-${tag}`]],
    );
    assert.equal(found.count, 1);
  });
});
