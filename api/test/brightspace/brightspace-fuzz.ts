import fc from 'fast-check';
import { account, authHeader, xsrfHeaders } from '../helper';
import { anyJson, hostileText } from '../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../security/suite-shapes';

/**
 * The Brightspace write routes for the fuzz suite (api/test/security): shapes are in
 * security/suite-shapes.ts. The suite's app is configured with `suiteBrightspace`
 * (brightspace-security-fixtures), so the start gets past "not configured" into its own checks.
 */
const actor = fc.constantFrom(
  account('learner', 'Demo Hospital').sub,
  account('org admin', 'Demo Hospital').sub,
  account('sys admin').sub,
  account('learner', 'Other College').sub,
);
const hostile = hostileText([
  '',
  '/',
  '//evil.test',
  '/\\evil.test',
  'https://evil.test',
  'javascript:alert(1)',
  '/\u0000',
  '/%2f%2fevil.test',
  `/${'x'.repeat(2100)}`,
]);
const json = anyJson(hostile);
/** A JSON body, a body that is no JSON, or none. */
const body = (shaped: fc.Arbitrary<unknown>) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: shaped.map((v) => ({ json: true, text: JSON.stringify(v) ?? 'null' })),
    },
    hostile.map((text) => ({ json: true, text })),
    fc.constant({ json: false, text: undefined as string | undefined }),
  );

async function headersOf(sub: string, json: boolean) {
  return {
    ...(await authHeader(sub)),
    ...xsrfHeaders(),
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}

export const brightspaceFuzzers: Record<string, Fuzzer> = {
  'POST /api/v1/user/brightspace-auth': fuzzer({
    input: fc.record({
      sub: actor,
      body: body(
        fc.oneof(fc.record({ redirectPath: fc.oneof(hostile, json) }, { requiredKeys: [] }), json),
      ),
    }),
    request: async (_ctx, { sub, body: b }) => ({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth',
      headers: await headersOf(sub, b.json),
      ...(b.text !== undefined ? { body: b.text } : {}),
    }),
  }),
  'POST /api/v1/user/brightspace-auth-reset': fuzzer({
    input: fc.record({ sub: actor, body: body(json) }),
    request: async (_ctx, { sub, body: b }) => ({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth-reset',
      headers: await headersOf(sub, b.json),
      ...(b.text !== undefined ? { body: b.text } : {}),
    }),
  }),
};
