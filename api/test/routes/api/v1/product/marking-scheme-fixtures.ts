import fc from 'fast-check';
import type { MarkingScheme } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';
import type { TestApp } from '../../../../helper';
import { demoMarkingSchemeOf } from '../../../../../src/demo/marking-schemes';
import { sysAdmin } from './configuration-fixtures';
import {
  adminActor,
  anyJson,
  hostileText,
  writeHeaders,
} from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fixture, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The marking scheme routes (issue #23) for the auth matrix and the fuzz suite
 * (api/test/security). Products are global: the refusal that matters is the permission
 * (`global.manage_sim_config`, which only global administrators hold).
 */
export const KNEE_SCHEME = demoMarkingSchemeOf('radiography', 'knee') as MarkingScheme;

export async function kneeConfigurationPath(db: Queryable): Promise<string> {
  const res = await db.query<{ id: number; product_id: number }>(
    `select id, product_id from product_configurations
      where configuration_name = 'radiography.lower-limb.knee'`,
  );
  const row = res.rows[0]!;
  return `/api/v1/product/${row.product_id}/configuration/${row.id}/marking-scheme`;
}

export function markingSchemeFixtures(app: () => TestApp): Record<string, Fixture> {
  return {
    'GET /api/v1/product/:id/configuration/:configurationId/marking-scheme': {
      actor: sysAdmin,
      build: async () => ({ url: await kneeConfigurationPath(app().db) }),
    },
    'PUT /api/v1/product/:id/configuration/:configurationId/marking-scheme': {
      actor: sysAdmin,
      build: async () => ({
        url: await kneeConfigurationPath(app().db),
        payload: { scheme: KNEE_SCHEME },
      }),
    },
  };
}

const hostile = hostileText(['', ' ', '\u0000', "'; drop table evidence_marks; --", 'x'.repeat(300)]);
const json = anyJson(hostile);
const number = fc.oneof(
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.constantFrom(-1, 0, 0.5, 1, 100, 1e9, Number.MAX_SAFE_INTEGER),
  json,
);
/** A criterion with every field replaced by a number, a hostile value or left out. */
const criterion = (fields: readonly string[]) =>
  fc.record(Object.fromEntries(fields.map((f) => [f, number])), { requiredKeys: [] });
const scheme = fc.oneof(
  { weight: 3, arbitrary: fc.constant<unknown>(KNEE_SCHEME) },
  fc.record(
    {
      passMark: number,
      criteria: fc.record(
        {
          centring: criterion(['weight', 'fullWithinMm', 'partialWithinMm']),
          kV: criterion(['weight', 'min', 'max', 'partialTolerance']),
          dose: criterion(['weight', 'drlDapMGyCm2', 'partialAtMostPercent']),
          repeats: criterion(['weight', 'fullAtMost', 'partialAtMost']),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(hostile, json, { maxKeys: 3 }),
  json,
);

export const markingSchemeFuzzers: Record<string, Fuzzer> = {
  'PUT /api/v1/product/:id/configuration/:configurationId/marking-scheme': fuzzer({
    input: fc.record({
      as: adminActor,
      target: fc.oneof(
        { weight: 4, arbitrary: fc.constant('@knee') },
        fc.constantFrom('1/configuration/999999', '0/configuration/1', 'abc/configuration/x'),
      ),
      body: fc.oneof(
        { weight: 4, arbitrary: scheme.map((s) => JSON.stringify({ scheme: s })) },
        fc.dictionary(hostile, json, { maxKeys: 3 }).map((d) => JSON.stringify(d)),
        hostile,
        fc.constant('{"scheme":'),
      ),
    }),
    async request(ctx, input) {
      const url =
        input.target === '@knee'
          ? await kneeConfigurationPath(ctx.t.db)
          : `/api/v1/product/${input.target}/marking-scheme`;
      return {
        method: 'PUT',
        url,
        headers: { ...(await writeHeaders(input.as)), 'content-type': 'application/json' },
        body: input.body,
      };
    },
  }),
};
