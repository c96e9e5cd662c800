import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadGroup } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';

describe('GET /api/v1/user/:id/simulation-download', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const otherLearner = account('learner', 'Other College');
  const sysadmin = account('sys admin');

  const downloads = async (sub: string, id = sub) => {
    const res = await t.app.inject({
      url: `/api/v1/user/${id}/simulation-download`,
      headers: await authHeader(sub),
    });
    return { status: res.statusCode, body: res.json<DownloadGroup[]>() };
  };
  const productId = async (code: string) =>
    (await t.db.query<{ id: number }>('select id from products where code = $1', [code])).rows[0]!
      .id;

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('a learner gets the active installers of each entitled product, grouped per product', async () => {
    const { status, body } = await downloads(learner.sub);
    assert.equal(status, 200);
    assert.deepEqual(
      body.map((g) => g.name),
      ['Radiography', 'Radiation safety', 'Birthing'],
    );
    const radiography = body[0]!;
    assert.equal(radiography.id, await productId('radiography'));
    assert.deepEqual(
      radiography.downloads.map((d) => [d.version, d.operatingSystem, d.fileUrl]),
      [
        ['2.4.1', 'windows', 'https://downloads.example.invalid/radiography/2.4.1/windows'],
        ['2.4.1', 'mac', 'https://downloads.example.invalid/radiography/2.4.1/mac'],
      ],
    );
    assert.ok(radiography.downloads.every((d) => typeof d.fileId === 'string'));
  });

  test('only entitled products are listed', async () => {
    const { body } = await downloads(otherLearner.sub);
    assert.deepEqual(
      body.map((g) => g.name),
      ['Radiography'],
    );
    const all = await downloads(sysadmin.sub);
    assert.equal(all.body.length, 3);
  });

  test('newest version first, compared as numbers; withdrawn versions are hidden', async () => {
    const radiography = await productId('radiography');
    await t.db.query(
      `insert into simulation_downloads (product_id, version, operating_system, is_active, file_url)
       values ($1, '2.10.0', 'mac', true, 'https://downloads.example.invalid/r/2.10.0/mac'),
              ($1, '2.9.9', 'windows', false, 'https://downloads.example.invalid/r/2.9.9/windows')`,
      [radiography],
    );
    try {
      const { body } = await downloads(otherLearner.sub);
      assert.deepEqual(
        body[0]?.downloads.map(
          (d) => `${d.version} ${d.operatingSystem} ${d.fileId === null ? 'external' : 'file'}`,
        ),
        ['2.10.0 mac external', '2.4.1 windows file', '2.4.1 mac file'],
      );
    } finally {
      await t.db.query(`delete from simulation_downloads where version in ('2.10.0', '2.9.9')`);
    }
  });

  test('an entitled product without active installers still has its (empty) group', async () => {
    const birthing = await productId('birthing');
    await t.db.query('update simulation_downloads set is_active = false where product_id = $1', [
      birthing,
    ]);
    try {
      const { body } = await downloads(learner.sub);
      assert.deepEqual(
        body.find((g) => g.id === birthing),
        { id: birthing, name: 'Birthing', downloads: [] },
      );
    } finally {
      await t.db.query(
        `update simulation_downloads set is_active = true where product_id = $1 and version = '2.4.1'`,
        [birthing],
      );
    }
  });

  test("another user's downloads are not found; an organisation without a licence has none", async () => {
    assert.equal((await downloads(learner.sub, otherLearner.sub)).status, 404);
    assert.equal((await downloads(sysadmin.sub, learner.sub)).status, 404);
    await t.db.query(
      `update license_blocks set is_active = false
        where organisation_id = (select id from organisations where name = 'Other College')`,
    );
    assert.deepEqual((await downloads(otherLearner.sub)).body, []);
    const noToken = await t.app.inject({ url: `/api/v1/user/${learner.sub}/simulation-download` });
    assert.equal(noToken.statusCode, 401);
  });
});
