import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ANALYSIS_STATUS, LOOKUP_FIELDS, type LookupItem } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';

describe('GET /api/v1/lookup', () => {
  let t: TestApp;
  const learner = account('learner', 'Demo Hospital');
  const sysadmin = account('sys admin');

  const lookup = async (query: string, sub = learner.sub) =>
    t.app.inject({ url: `/api/v1/lookup?${query}`, headers: await authHeader(sub) });
  const items = async (query: string, sub?: string) => {
    const res = await lookup(query, sub);
    assert.equal(res.statusCode, 200, res.body);
    return res.json<LookupItem[]>();
  };

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  test('every field of the contract answers a list', async () => {
    const extra: Record<string, string> = {
      organisation_licenses: '&organisation=1',
      practice_view_category: '&product_id=1',
    };
    for (const field of LOOKUP_FIELDS) {
      const list = await items(`field=${field}${extra[field] ?? ''}`, sysadmin.sub);
      assert.ok(Array.isArray(list), field);
      for (const item of list) {
        assert.deepEqual(Object.keys(item).sort(), ['code', 'description', 'id', 'name'], field);
      }
    }
  });

  test('countries are a real list with ISO codes', async () => {
    const list = await items('field=country');
    assert.ok(list.length >= 30);
    assert.ok(list.every((c) => /^[A-Z]{2}$/.test(c.code ?? '')));
    assert.equal(list.find((c) => c.code === 'DE')?.name, 'Germany');
    assert.equal(list.find((c) => c.code === 'GB')?.name, 'United Kingdom');
  });

  test('languages carry the language code', async () => {
    const list = await items('field=language');
    assert.deepEqual(
      list.map((l) => [l.code, l.name]),
      [
        ['en', 'English'],
        ['de', 'Deutsch'],
      ],
    );
  });

  const named: Array<[string, string[]]> = [
    ['radiation_units', ['SI', 'Conventional']],
    ['measurement_standard', ['Metric', 'Imperial']],
    ['learning_management_system', ['Brightspace', 'Moodle', 'Canvas', 'Blackboard', 'None']],
    ['license_duration', ['1 year', '2 years', '3 years', 'Inactive']],
    ['roles', ['learner', 'educator', 'org admin', 'sys admin']],
  ];
  for (const [field, names] of named) {
    test(`${field} lists ${names.join(', ')}`, async () => {
      assert.deepEqual(
        (await items(`field=${field}`)).map((l) => l.name),
        names,
      );
    });
  }

  test('roles carry their stable codes', async () => {
    assert.deepEqual(
      (await items('field=roles')).map((r) => [r.name, r.code]),
      [
        ['learner', 'learner'],
        ['educator', 'educator'],
        ['org admin', 'org_admin'],
        ['sys admin', 'sys_admin'],
      ],
    );
  });

  test('skin tones are four hex colours', async () => {
    const list = await items('field=skinTone');
    assert.equal(list.length, 4);
    assert.ok(list.every((s) => /^#[0-9A-F]{6}$/i.test(s.code ?? '')));
  });

  test('analysis statuses have the required ids 22001-22003', async () => {
    const list = await items('field=analysis_status');
    assert.deepEqual(
      list.map((s) => [s.id, s.name]),
      [
        [ANALYSIS_STATUS.notAnalysed, 'Not analysed'],
        [ANALYSIS_STATUS.accepted, 'Accepted'],
        [ANALYSIS_STATUS.rejected, 'Rejected'],
      ],
    );
  });

  test('a sys admin sees every organisation; others only their own', async () => {
    assert.deepEqual(
      (await items('field=organisation', sysadmin.sub)).map((o) => o.name),
      ['Demo Brightspace College', 'Demo Hospital', 'Other College'],
    );
    assert.deepEqual(
      (await items('field=organisation')).map((o) => o.name),
      ['Demo Hospital'],
    );
  });

  test('entitlements come from the catalogue, one per product and mode', async () => {
    const list = await items('field=entitlement');
    assert.deepEqual(
      list.map((e) => [e.name, e.code]),
      [
        ['Radiography – VR', 'radiography:VR'],
        ['Radiography – Desktop', 'radiography:Desktop'],
        ['Radiation safety – VR', 'radiation-safety:VR'],
        ['Radiation safety – Desktop', 'radiation-safety:Desktop'],
        ['Birthing – VR', 'birthing:VR'],
        ['Birthing – Desktop', 'birthing:Desktop'],
      ],
    );
    const ids = await t.db.query<{ id: number }>('select id from entitlements order by id');
    assert.deepEqual(
      list.map((e) => e.id).sort((a, b) => a - b),
      ids.rows.map((r) => r.id),
    );
    const stale = await t.db.query("select 1 from lookups where field = 'entitlement'");
    assert.equal(stale.rowCount, 0, 'no static entitlement lookups are left');
  });

  test('products come from the catalogue in catalogue order', async () => {
    const list = await items('field=product');
    assert.deepEqual(
      list.map((p) => [p.code, p.name]),
      [
        ['radiography', 'Radiography'],
        ['radiation-safety', 'Radiation safety'],
        ['birthing', 'Birthing'],
      ],
    );
  });

  // organisation_licenses answers from the licences now: test/routes/api/v1/license-block.
  // practice_view_category answers each product's own categories:
  // test/routes/api/v1/product/configuration.test.ts.

  test('organisation_licenses without organisation answers 400 on that field', async () => {
    const res = await lookup('field=organisation_licenses');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { organisation: ['This field is required.'] });
  });

  test('practice_view_category without product_id answers 400 on that field', async () => {
    const res = await lookup('field=practice_view_category');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { product_id: ['This field is required.'] });
  });

  test('an unknown or missing field answers 400 on field', async () => {
    const unknown = await lookup('field=planets');
    assert.equal(unknown.statusCode, 400);
    assert.ok(
      unknown.json<Record<string, string[]>>().field?.[0]?.startsWith('must be one of: "country"'),
    );
    const missing = await lookup('');
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(missing.json(), { field: ['This field is required.'] });
  });

  test('a non-numeric organisation answers 400 on organisation', async () => {
    const res = await lookup('field=organisation_licenses&organisation=abc');
    assert.equal(res.statusCode, 400);
    assert.deepEqual(Object.keys(res.json()), ['organisation']);
  });

  test('lookups need a signed-in user', async () => {
    const res = await t.app.inject({ url: '/api/v1/lookup?field=country' });
    assert.equal(res.statusCode, 401);
  });
});
