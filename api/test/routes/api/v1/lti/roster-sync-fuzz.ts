import fc from 'fast-check';
import type { App } from '../../../../../src/app';
import type { Queryable } from '../../../../../src/db/driver';
import { account, authHeader, xsrfHeaders } from '../../../../helper';
import { anyJson, hostileText } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fuzzer } from '../../../../security/suite-shapes';
import { rosterLaunch, rosterPlatform } from './roster-sync-fixtures';

/**
 * The roster sync's and the course grade release's write routes for the fuzz suite (api/test/security): a fresh NRPS launch of
 * the Demo Hospital educator's, ids that are nearly right or anything, bodies of any shape,
 * sometimes as a learner or the organisation's admin (who may not use the educator's launch).
 */
const educator = account('educator', 'Demo Hospital');
const actor = fc.oneof(
  { weight: 6, arbitrary: fc.constant(educator.sub) },
  fc.constant(account('org admin', 'Demo Hospital').sub),
  fc.constant(account('learner', 'Demo Hospital').sub),
);
const hostile = hostileText(['', ' ', '\u0000', "'; drop table lti_courses; --", 'x'.repeat(300)]);
const json = anyJson(hostile, { maxDepth: 2, integer: false });
const launchRef = fc.oneof(
  { weight: 6, arbitrary: fc.constant('@fresh') },
  fc.constantFrom('00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%00'),
  fc.uuid(),
  json,
);

let platform: ReturnType<typeof rosterPlatform> | null = null;
async function launchIdOf(t: { app: App; db: Queryable }, ref: unknown) {
  if (ref !== '@fresh') return ref;
  platform ??= rosterPlatform(() => t, 'https://fuzz-roster.test', 'roster-fuzz-client');
  return rosterLaunch(t.app, await platform());
}

const gradeRelease = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('automatic', 'after_review', null) },
  json,
);

export const rosterSyncFuzzers: Record<string, Fuzzer> = {
  // The course's grade release: the same launches, a choice that is right or anything.
  'PUT /api/v1/lti/course-grade-release': fuzzer({
    input: fc.record({
      as: actor,
      launch: launchRef,
      gradeRelease,
      extra: fc.option(fc.dictionary(hostile, json, { maxKeys: 2 })),
      raw: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, hostile),
    }),
    async request(t, input) {
      const payload =
        input.raw ??
        JSON.stringify({
          launchId: await launchIdOf(t.t, input.launch),
          gradeRelease: input.gradeRelease,
          ...input.extra,
        });
      return {
        method: 'PUT',
        url: '/api/v1/lti/course-grade-release',
        headers: {
          ...(await authHeader(input.as)),
          ...xsrfHeaders(),
          'content-type': 'application/json',
        },
        body: Buffer.from(payload),
      };
    },
  }),
  'POST /api/v1/lti/roster-sync': fuzzer({
    input: fc.record({
      as: actor,
      launch: launchRef,
      extra: fc.option(fc.dictionary(hostile, json, { maxKeys: 2 })),
      raw: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, hostile),
    }),
    async request(t, input) {
      // An accepted request's sync runs in the background (outbox); it must be over before the
      // suite takes the tables' digests for the next one.
      await t.t.app.outboxWorker.idle();
      const payload =
        input.raw ??
        JSON.stringify({ launchId: await launchIdOf(t.t, input.launch), ...input.extra });
      return {
        method: 'POST',
        url: '/api/v1/lti/roster-sync',
        headers: {
          ...(await authHeader(input.as)),
          ...xsrfHeaders(),
          'content-type': 'application/json',
        },
        body: Buffer.from(payload),
      };
    },
  }),
};
