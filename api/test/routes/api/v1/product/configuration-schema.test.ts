import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProductConfigurationSchema } from '@portal/contract';
import type { DemoAccount } from '@portal/contract/demo-accounts';
import { buildTestApp, type TestApp } from '../../../../helper';
import {
  configurationBody,
  headers,
  learner,
  orgAdmin,
  productIdOf,
  RADIOGRAPHY_CONFIG,
  sysAdmin,
} from './configuration-fixtures';

const url = (product: number | string) => `/api/v1/product/${product}/configuration-schema`;

describe('a product’s configuration schema', () => {
  let t: TestApp;
  let radiography: number;
  let original: Record<string, unknown>;
  before(async () => {
    t = await buildTestApp();
    radiography = await productIdOf(t.db, 'radiography');
  });
  after(() => t.close());

  const call = async (method: 'GET' | 'PUT', path: string, payload?: unknown, as: DemoAccount = sysAdmin) =>
    t.app.inject({
      method,
      url: path,
      headers: await headers(as.sub),
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  test('global administrators read it; others are refused; an unknown product is 404', async () => {
    const res = await call('GET', url(radiography));
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json<ProductConfigurationSchema>();
    assert.equal(body.product, radiography);
    assert.equal(body.schema.type, 'object');
    assert.ok(Array.isArray(body.schema.required) && body.schema.required.includes('bodyArea'));
    original = body.schema;

    for (const as of [orgAdmin, learner]) {
      assert.equal((await call('GET', url(radiography), undefined, as)).statusCode, 403);
      assert.equal((await call('PUT', url(radiography), { schema: { type: 'object' } }, as)).statusCode, 403);
    }
    assert.equal((await call('GET', url(999_999))).statusCode, 404);
    assert.equal((await call('PUT', url(999_999), { schema: { type: 'object' } })).statusCode, 404);
  });

  test('a new schema is saved, audited, and the next configuration save is checked against it', async () => {
    const stricter = {
      ...original,
      required: [...((original.required as string[]) ?? []), 'position'],
      properties: { ...(original.properties as object), position: { enum: ['AP', 'lateral'] } },
    };
    const res = await call('PUT', url(radiography), { schema: stricter });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json<ProductConfigurationSchema>(), { product: radiography, schema: stricter });
    assert.deepEqual((await call('GET', url(radiography))).json<ProductConfigurationSchema>().schema, stricter);

    const audit = await t.db.query<{ actor_id: string; before: unknown; after: unknown; organisation_id: number | null }>(
      `select actor_id::text as actor_id, before, after, organisation_id from audit_log
        where entity_type = 'product' and entity_id = $1 order by id desc limit 1`,
      [String(radiography)],
    );
    assert.deepEqual(audit.rows[0]?.before, { configurationSchema: original });
    assert.deepEqual(audit.rows[0]?.after, { configurationSchema: stricter });
    assert.equal(audit.rows[0]?.organisation_id, null);

    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${radiography}/configuration`,
      headers: await headers(sysAdmin.sub),
      payload: await configurationBody(t),
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.deepEqual(refused.json(), { configFile: ["/: must have required property 'position'"] });
    const accepted = await t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${radiography}/configuration`,
      headers: await headers(sysAdmin.sub),
      payload: await configurationBody(t, {
        configFile: await (async () => {
          const { uploadedFile } = await import('./configuration-fixtures');
          return uploadedFile(t, 'sim-config', { ...RADIOGRAPHY_CONFIG, position: 'AP' });
        })(),
      }),
    });
    assert.equal(accepted.statusCode, 201, accepted.body);

    assert.equal((await call('PUT', url(radiography), { schema: original })).statusCode, 200);
  });

  test('refuses what is no JSON Schema, naming the JSON path, and changes nothing', async () => {
    const before = (await call('GET', url(radiography))).json<ProductConfigurationSchema>().schema;
    const cases: Array<[unknown, (messages: string[]) => void]> = [
      [
        { type: 'objekt' },
        (m) => assert.ok(m.includes('/type: must be equal to one of the allowed values'), m.join(' | ')),
      ],
      [
        { properties: { kv: { minimum: 'forty' } } },
        (m) => assert.ok(m.includes('/properties/kv/minimum: must be number'), m.join(' | ')),
      ],
      [
        { required: 'bodyArea' },
        (m) => assert.ok(m.includes('/required: must be array'), m.join(' | ')),
      ],
      [
        { $ref: '#/definitions/nowhere' },
        (m) => assert.match(m[0] ?? '', /^The schema cannot be used: can't resolve reference #\/definitions\/nowhere/),
      ],
    ];
    for (const [schema, check] of cases) {
      const res = await call('PUT', url(radiography), { schema });
      assert.equal(res.statusCode, 400, `${JSON.stringify(schema)}: ${res.body}`);
      const errors = res.json<{ schema: string[] }>();
      assert.deepEqual(Object.keys(errors), ['schema']);
      check(errors.schema);
    }
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 100; i++) deep = { properties: { x: deep } };
    const tooDeep = await call('PUT', url(radiography), { schema: deep });
    assert.equal(tooDeep.statusCode, 400);
    assert.deepEqual(tooDeep.json(), { schema: ['The schema is nested more than 64 levels deep.'] });

    for (const body of [{ schema: [] }, { schema: 'x' }, {}, { schema: null }]) {
      const res = await call('PUT', url(radiography), body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
    }
    assert.deepEqual((await call('GET', url(radiography))).json<ProductConfigurationSchema>().schema, before);
  });
});
