import fc from 'fast-check';
import type { Queryable } from '../../../../../src/db/driver';
import { account, type TestApp } from '../../../../helper';
import { createReport } from '../../../../factories/reports';
import { hostileText, writeHeaders } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fixture, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * `POST /api/v1/report/{id}/release-grade` (issue #23) for the auth matrix and the fuzz suite:
 * an educator of the learner's organisation releases a grade held for review. Every build makes
 * a fresh pending report, as a release consumes it.
 */
const learner = account('learner', 'Demo Hospital');
const otherLearner = account('learner', 'Other College');
const educator = account('educator', 'Demo Hospital');
const otherEducator = account('educator', 'Demo Brightspace College');
const orgAdmin = account('org admin', 'Demo Hospital');

/** A completed knee report of `userId` with a computed score whose grade waits for release. */
export async function pendingReport(db: Queryable, userId: string): Promise<string> {
  const { uuid } = await createReport(db, {
    userId,
    product: 'radiography',
    configuration: 'radiography.lower-limb.knee',
    status: 'complete',
    evidence: [{}],
  });
  await db.query(
    `update simulation_sessions set score = 80, pass_mark = 60, grade_pending_since = now()
      where uuid = $1`,
    [uuid],
  );
  return uuid;
}

const url = (uuid: string) => `/api/v1/report/${uuid}/release-grade`;

export function releaseGradeFixtures(app: () => TestApp): Record<string, Fixture> {
  return {
    'POST /api/v1/report/:reportId/release-grade': {
      actor: educator,
      build: async () => ({ url: url(await pendingReport(app().db, learner.sub)) }),
      foreign: async () => [
        {
          as: educator,
          what: "another organisation's learner's report",
          req: { url: url(await pendingReport(app().db, otherLearner.sub)) },
        },
        {
          as: otherEducator,
          what: "a Demo Hospital learner's report",
          req: { url: url(await pendingReport(app().db, learner.sub)) },
        },
        {
          as: orgAdmin,
          what: "another organisation's learner's report",
          req: { url: url(await pendingReport(app().db, otherLearner.sub)) },
        },
        {
          as: educator,
          what: 'their own report (an educator is never their own reviewer)',
          req: { url: url(await pendingReport(app().db, educator.sub)) },
        },
      ],
    },
  };
}

const hostile = hostileText(['', ' ', '\u0000', '../../x', "'; drop table outbox; --"]);

export const releaseGradeFuzzers: Record<string, Fuzzer> = {
  'POST /api/v1/report/:reportId/release-grade': fuzzer({
    input: fc.record({
      as: fc.constantFrom(educator.sub, otherEducator.sub, learner.sub, orgAdmin.sub),
      report: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('@mine', '@other') },
        fc.uuid(),
        hostile.map(encodeURIComponent),
      ),
      body: fc.oneof(fc.constant(undefined), hostile, fc.constant('{"score":100}')),
    }),
    async request(ctx, input) {
      const report =
        input.report === '@mine'
          ? await pendingReport(ctx.t.db, learner.sub)
          : input.report === '@other'
            ? await pendingReport(ctx.t.db, otherLearner.sub)
            : input.report;
      return {
        method: 'POST',
        url: url(report),
        headers: {
          ...(await writeHeaders(input.as)),
          ...(input.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(input.body === undefined ? {} : { body: input.body }),
      };
    },
  }),
};
