import fc from 'fast-check';
import type { TestApp } from '../../../../helper';
import { productIdOf, sysAdmin } from './configuration-fixtures';
import {
  adminActor,
  anyJson,
  hostileText,
  writeHeaders,
} from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fixture, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The configuration schema routes for the auth matrix and the fuzz suite (api/test/security): the
 * shapes are in security/suite-shapes.ts. Products are global: the refusal that matters is the
 * permission (`global.manage_validation_schema`, which only global administrators hold).
 */
/** Birthing's schema: what the other suites check configurations against is Radiography's. */
const SCHEMA = { type: 'object', properties: { position: { type: 'string' } } };

export function configurationSchemaFixtures(app: () => TestApp): Record<string, Fixture> {
  const path = async () =>
    `/api/v1/product/${await productIdOf(app().db, 'birthing')}/configuration-schema`;
  return {
    'GET /api/v1/product/:id/configuration-schema': {
      actor: sysAdmin,
      build: async () => ({ url: await path() }),
    },
    'PUT /api/v1/product/:id/configuration-schema': {
      actor: sysAdmin,
      build: async () => ({ url: await path(), payload: { schema: SCHEMA } }),
    },
  };
}

const hostile = hostileText([
  '',
  ' ',
  '\u0000',
  "'; drop table products; --",
  '../../x',
  'x'.repeat(300),
]);
const json = anyJson(hostile);
/** Schemas valid, nearly valid (a keyword with a wrong value, a `$ref` to nowhere) or anything. */
const schema = fc.oneof(
  { weight: 3, arbitrary: fc.constant<unknown>(SCHEMA) },
  fc.record({
    type: fc.oneof(fc.constantFrom('object', 'string', 'objekt'), json),
    required: fc.oneof(fc.array(hostile, { maxLength: 3 }), json),
    properties: fc.dictionary(hostile, fc.oneof(fc.record({ type: json }), json), { maxKeys: 3 }),
  }),
  fc.record({ $ref: fc.oneof(fc.constant('#/definitions/nowhere'), hostile) }),
  fc.dictionary(hostile, json, { maxKeys: 4 }),
  json,
);

export const configurationSchemaFuzzers: Record<string, Fuzzer> = {
  'PUT /api/v1/product/:id/configuration-schema': fuzzer({
    input: fc.record({
      as: adminActor,
      product: fc.oneof(
        { weight: 4, arbitrary: fc.constant('@birthing') },
        fc.constantFrom('0', '-1', '999999', '1e3', 'abc'),
      ),
      body: fc.oneof(
        { weight: 4, arbitrary: schema.map((s) => JSON.stringify({ schema: s })) },
        fc.dictionary(hostile, json, { maxKeys: 3 }).map((d) => JSON.stringify(d)),
        hostile,
        fc.constant('{"schema":'),
      ),
    }),
    async request(ctx, input) {
      const product =
        input.product === '@birthing'
          ? String(await productIdOf(ctx.t.db, 'birthing'))
          : input.product;
      return {
        method: 'PUT',
        url: `/api/v1/product/${product}/configuration-schema`,
        headers: { ...(await writeHeaders(input.as)), 'content-type': 'application/json' },
        body: input.body,
      };
    },
  }),
};
