import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MarkingScheme } from '@portal/contract';
import { buildTestApp, type TestApp } from '../../../../helper';
import { headers, sysAdmin } from './configuration-fixtures';
import { KNEE_SCHEME, kneeConfigurationPath } from './marking-scheme-fixtures';
import { MARKING_SCHEME_MESSAGES } from '../../../../../src/services/configurations/save-marking-scheme';

describe('a configuration’s marking scheme (GET/PUT …/configuration/{id}/marking-scheme)', () => {
  let t: TestApp;
  let path: string;
  before(async () => {
    t = await buildTestApp();
    path = await kneeConfigurationPath(t.db);
  });
  after(() => t.close());

  const put = async (payload: unknown) =>
    t.app.inject({ method: 'PUT', url: path, headers: await headers(sysAdmin.sub), payload: payload as object });

  test('the demo knee configuration has the demo scheme; a change is stored and audited', async () => {
    const got = await t.app.inject({ method: 'GET', url: path, headers: await headers(sysAdmin.sub) });
    assert.equal(got.statusCode, 200, got.body);
    assert.deepEqual(got.json(), { scheme: KNEE_SCHEME });

    const changed: MarkingScheme = { ...KNEE_SCHEME, passMark: 70 };
    const res = await put({ scheme: changed });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { scheme: changed });
    const audit = await t.db.query<{ after: { markingScheme: MarkingScheme } }>(
      `select after from audit_log where entity_type = 'product_configuration' order by id desc limit 1`,
    );
    assert.equal(audit.rows[0]!.after.markingScheme.passMark, 70);
    assert.equal((await put({ scheme: null })).statusCode, 200);
    const cleared = await t.app.inject({ method: 'GET', url: path, headers: await headers(sysAdmin.sub) });
    assert.deepEqual(cleared.json(), { scheme: null });
    assert.equal((await put({ scheme: KNEE_SCHEME })).statusCode, 200);
  });

  test('a bad scheme is a 400 naming the field and the reason; nothing is stored', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...KNEE_SCHEME, passMark: 101 }, 'scheme.passMark', /100/],
      [
        { ...KNEE_SCHEME, criteria: { ...KNEE_SCHEME.criteria, kV: { ...KNEE_SCHEME.criteria.kV!, min: 20 } } },
        'scheme.criteria.kV.min',
        /40/,
      ],
      [
        { ...KNEE_SCHEME, criteria: { ...KNEE_SCHEME.criteria, kV: { ...KNEE_SCHEME.criteria.kV!, max: 50, min: 60 } } },
        'scheme.criteria.kV.max',
        new RegExp(MARKING_SCHEME_MESSAGES.maxBelowMin),
      ],
      [
        { ...KNEE_SCHEME, criteria: { centring: { weight: 10, fullWithinMm: 20, partialWithinMm: 10 } } },
        'scheme.criteria.centring.partialWithinMm',
        new RegExp(MARKING_SCHEME_MESSAGES.partialBelowFull),
      ],
      [{ passMark: 50, criteria: { repeats: { weight: 0, fullAtMost: 0, partialAtMost: 1 } } }, 'scheme.criteria', /weight above 0/],
      [{ ...KNEE_SCHEME, criteria: { ...KNEE_SCHEME.criteria, dose: { weight: 5 } } }, 'scheme.criteria.dose.drlDapMGyCm2', /.+/],
    ];
    for (const [scheme, field, message] of cases) {
      const res = await put({ scheme });
      assert.equal(res.statusCode, 400, `${field}: ${res.body}`);
      const errors = res.json<Record<string, string[]>>();
      assert.ok(errors[field], `${field} named in ${res.body}`);
      assert.match(errors[field]!.join(' '), message);
    }
    const stored = await t.app.inject({ method: 'GET', url: path, headers: await headers(sysAdmin.sub) });
    assert.deepEqual(stored.json(), { scheme: KNEE_SCHEME });
  });

  test("another product's configuration is not found", async () => {
    const other = path.replace(/product\/\d+/, 'product/999999');
    const res = await t.app.inject({ method: 'GET', url: other, headers: await headers(sysAdmin.sub) });
    assert.equal(res.statusCode, 404);
  });
});
