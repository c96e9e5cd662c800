import fc from 'fast-check';
import { adminActor, hostileText, writeHeaders } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * The registration-URL write for the fuzz suite (api/test/security): shapes are in
 * security/suite-shapes.ts. Mostly as the global administrator, who gets past the permission into
 * the route's own checks; sometimes as an organisation administrator, who must be refused.
 */
const actor = adminActor;
const hostile = hostileText(
  ['', ' ', '\u0000', "'; drop table lti_registration_tokens; --", '../1', 'x'.repeat(3000)],
  { binary: false },
);
const organisation = fc.oneof(
  { weight: 3, arbitrary: fc.constant('@demo') },
  fc.constantFrom('0', '-1', '2147483648', '999999', '1.5', '1e3', '0x1'),
  fc.integer().map(String),
  hostile.map(encodeURIComponent),
);
const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  hostile,
);

export const ltiRegistrationFuzzers: Record<string, Fuzzer> = {
  'POST /api/v1/organisation/:id/lti/registration-token': fuzzer({
    input: fc.record({ actor, organisation, body }),
    async request({ t }, input) {
      const id =
        input.organisation === '@demo'
          ? String(
              (
                await t.db.query<{ id: number }>(
                  "select id from organisations where name = 'Demo Hospital'",
                )
              ).rows[0]!.id,
            )
          : input.organisation;
      return {
        method: 'POST',
        url: `/api/v1/organisation/${id}/lti/registration-token`,
        headers: {
          ...(await writeHeaders(input.actor)),
          ...(input.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(input.body !== undefined ? { body: input.body } : {}),
      };
    },
  }),
};
