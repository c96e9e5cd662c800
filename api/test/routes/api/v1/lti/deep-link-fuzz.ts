import fc from 'fast-check';
import type { Queryable } from '../../../../../src/db/driver';
import type { App } from '../../../../../src/app';
import { account, authHeader, xsrfHeaders } from '../../../../helper';
import { registerPlatform } from '../../../../lti/lti-fixtures';
import {
  createTestPlatform,
  serveJwks,
  type TestPlatform,
} from '../../../../lti/platform-fixtures';
import { deepLinkLaunch } from './deep-link-fixtures';
import { anyJson, hostileText } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The deep linking write routes for the fuzz suite (api/test/security): shapes are in
 * security/suite-shapes.ts. Each run answers a fresh deep linking request of the Demo Hospital
 * educator's, with choices that are right, nearly right or anything, sometimes as a learner or
 * someone else.
 */
const educator = account('educator', 'Demo Hospital');
const actor = fc.oneof(
  { weight: 6, arbitrary: fc.constant(educator.sub) },
  fc.constant(account('org admin', 'Demo Hospital').sub),
  fc.constant(account('learner', 'Demo Hospital').sub),
);
const hostile = hostileText([
  '',
  ' ',
  '\u0000',
  "'; drop table lti_launches; --",
  '../../x',
  'x'.repeat(300),
]);
const json = anyJson(hostile, { maxDepth: 2, integer: false });
/** `@fresh` is a new request of the educator's; anything else is used as the path segment. */
const launchRef = fc.oneof(
  { weight: 6, arbitrary: fc.constant('@fresh') },
  fc.constantFrom('00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%00', '..'),
  fc.uuid(),
);

let setup: Promise<{ platform: TestPlatform; ids: Record<string, number> }> | null = null;
const ctxOf = (t: { app: App; db: Queryable }) =>
  (setup ??= (async () => {
    const platform = await createTestPlatform('https://fuzz-deep-link.test', 'dl-fuzz-client');
    const jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
    const res = await t.db.query<{ product: number; knee: number; lower: number }>(
      `select product_id as product, id as knee, parent_id as lower from product_categories
        where simulation_configuration = 'radiography.lower-limb.knee'`,
    );
    const { product, knee, lower } = res.rows[0]!;
    return { platform, ids: { product, knee, lower } };
  })());

async function launchIdOf(t: { app: App; db: Queryable }, ref: string) {
  if (ref !== '@fresh') return encodeURIComponent(ref);
  return deepLinkLaunch(t.app, (await ctxOf(t)).platform);
}

/** `@product`, `@knee` (a leaf) and `@lower` (its parent) stand for the seeded ids. */
const choice = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      productId: fc.oneof(
        { weight: 4, arbitrary: fc.constant('@product') },
        fc.integer({ min: -1, max: 50 }),
        json,
      ),
      categoryId: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('@knee', '@knee', '@lower') },
        fc.integer({ min: -1, max: 500 }),
        json,
      ),
      mode: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('Desktop', 'VR', 'desktop', 'Hologram') },
        json,
      ),
    }),
  },
  fc.dictionary(hostile, json, { maxKeys: 4 }),
  json,
);

function resolve(payload: unknown, ids: Record<string, number>): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return payload;
  return Object.fromEntries(
    Object.entries(payload).map(([k, v]) => [
      k,
      typeof v === 'string' && v.startsWith('@') && ids[v.slice(1)] !== undefined
        ? ids[v.slice(1)]
        : v,
    ]),
  );
}

/** JSON of the payload; a raw string is sent as it is (mostly not JSON at all). */
const body = (payload: unknown) => ({
  body: Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)),
  contentType: 'application/json',
});

export const deepLinkFuzzers: Record<string, Fuzzer> = {
  'POST /api/v1/lti/deep-link/:launchId': fuzzer({
    input: fc.record({
      as: actor,
      launch: launchRef,
      payload: choice,
      raw: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, hostile),
    }),
    async request(t, input) {
      const { ids } = await ctxOf(t.t);
      const { body: data, contentType } =
        input.raw === null ? body(resolve(input.payload, ids)) : body(input.raw);
      return {
        method: 'POST',
        url: `/api/v1/lti/deep-link/${await launchIdOf(t.t, input.launch)}`,
        headers: {
          ...(await authHeader(input.as)),
          ...xsrfHeaders(),
          'content-type': contentType,
        },
        body: data,
      };
    },
  }),
  'POST /api/lti/deep-link/:launchId/return': fuzzer({
    input: fc.record({
      launch: launchRef,
      jwt: fc.oneof(
        { weight: 3, arbitrary: fc.constant('@signed') },
        fc.constant('@tampered'),
        hostile,
      ),
      language: fc.option(fc.oneof(fc.constantFrom('de', 'en', 'fr'), hostile)),
      contentType: fc.constantFrom(
        'application/x-www-form-urlencoded',
        'application/x-www-form-urlencoded',
        'application/json',
        'text/plain',
      ),
    }),
    async request(t, input) {
      const launchId = await launchIdOf(t.t, input.launch);
      let jwt = input.jwt;
      if (jwt === '@signed' || jwt === '@tampered') {
        const { ids } = await ctxOf(t.t);
        const fresh = input.launch === '@fresh' ? launchId : await launchIdOf(t.t, '@fresh');
        const res = await t.t.app.inject({
          method: 'POST',
          url: `/api/v1/lti/deep-link/${fresh}`,
          headers: { ...(await authHeader(educator.sub)), ...xsrfHeaders() },
          payload: { productId: ids.product, categoryId: ids.knee, mode: 'Desktop' },
        });
        // Earlier fuzzers of the suite change the same database (users deleted, licences
        // edited), so late in a full run the educator may no longer be able to answer: the run
        // then posts a JWT that was never issued, which the page must refuse all the same.
        const signed =
          res.statusCode === 200 ? res.json<{ jwt: string }>().jwt : 'never.issued.jwt';
        jwt = input.jwt === '@tampered' ? `${signed.slice(0, -4)}AAAA` : signed;
      }
      const fields = { JWT: jwt, ...(input.language !== null ? { language: input.language } : {}) };
      const payload =
        input.contentType === 'application/json'
          ? JSON.stringify(fields)
          : new URLSearchParams(fields).toString();
      return {
        method: 'POST',
        url: `/api/lti/deep-link/${launchId}/return`,
        headers: { 'content-type': input.contentType },
        body: Buffer.from(payload),
      };
    },
  }),
};
