import fc from 'fast-check';
import type { Queryable } from '../../../../../src/db/driver';
import { account, type TestApp } from '../../../../helper';
import { createReport } from '../../../../factories/reports';
import { anyJson, hostileText, writeHeaders } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fixture, type Fuzzer } from '../../../../security/suite-shapes';

/**
 * Educator feedback (issue #23 point 3) for the auth matrix and the fuzz suite:
 * `PUT /api/v1/report/{id}/evidence/{evidenceId}/feedback`, `PUT /api/v1/report/{id}/feedback`
 * and the learner's notifications (`GET /api/v1/notification/mine`, `POST …/{id}/read`).
 */
const learner = account('learner', 'Demo Hospital');
const otherLearner = account('learner', 'Other College');
const educator = account('educator', 'Demo Hospital');
const otherEducator = account('educator', 'Demo Brightspace College');
const orgAdmin = account('org admin', 'Demo Hospital');

/**
 * A completed knee report of `userId` with one image marked on two criteria (centring 10 of 20,
 * dose 20 of 20: 75 %), written straight to the database as the marking would.
 */
export async function markedReport(
  db: Queryable,
  userId: string,
): Promise<{ uuid: string; evidenceId: number }> {
  const { uuid, evidenceIds } = await createReport(db, {
    userId,
    product: 'radiography',
    configuration: 'radiography.lower-limb.knee',
    status: 'complete',
    evidence: [{}],
  });
  const evidenceId = evidenceIds[0]!;
  await db.query(
    `insert into evidence_marks (evidence_id, criterion, mark, max, reason, value, limit_value)
     values ($1, 'centring', 10, 20, 'off_centre', 15, 10), ($1, 'dose', 20, 20, 'met', 100, 300)`,
    [evidenceId],
  );
  await db.query('update evidence set score = 75 where id = $1', [evidenceId]);
  await db.query('update simulation_sessions set score = 75, pass_mark = 60 where uuid = $1', [
    uuid,
  ]);
  return { uuid, evidenceId };
}

const imageUrl = (r: { uuid: string; evidenceId: number }) =>
  `/api/v1/report/${r.uuid}/evidence/${r.evidenceId}/feedback`;
const reportUrl = (uuid: string) => `/api/v1/report/${uuid}/feedback`;

/** A notification of `userId` (new feedback on one of their reports); answers its id. */
export async function notificationOf(db: Queryable, userId: string): Promise<number> {
  const { uuid } = await markedReport(db, userId);
  const res = await db.query<{ id: string }>(
    `insert into user_notifications (user_id, kind, session_uuid)
     values ($1, 'report_feedback', $2) returning id`,
    [userId, uuid],
  );
  return Number(res.rows[0]!.id);
}

/** Who must be refused feedback on whose report, whatever the route. */
async function foreignFeedback(
  db: Queryable,
  req: (report: { uuid: string; evidenceId: number }) => {
    url: string;
    payload: Record<string, unknown>;
  },
) {
  return [
    {
      as: educator,
      what: "another organisation's learner's report",
      req: req(await markedReport(db, otherLearner.sub)),
    },
    {
      as: otherEducator,
      what: "a Demo Hospital learner's report",
      req: req(await markedReport(db, learner.sub)),
    },
    {
      as: orgAdmin,
      what: "another organisation's learner's report",
      req: req(await markedReport(db, otherLearner.sub)),
    },
    {
      as: educator,
      what: 'their own report (an educator never reviews themselves)',
      req: req(await markedReport(db, educator.sub)),
    },
  ];
}

export function feedbackFixtures(app: () => TestApp): Record<string, Fixture> {
  return {
    'PUT /api/v1/report/:reportId/evidence/:evidenceId/feedback': {
      actor: educator,
      build: async () => ({
        url: imageUrl(await markedReport(app().db, learner.sub)),
        payload: { comment: 'Centre on the joint space.' },
      }),
      foreign: () =>
        foreignFeedback(app().db, (r) => ({ url: imageUrl(r), payload: { comment: 'x' } })),
    },
    'PUT /api/v1/report/:reportId/feedback': {
      actor: educator,
      build: async () => {
        const r = await markedReport(app().db, learner.sub);
        return {
          url: reportUrl(r.uuid),
          payload: {
            comment: 'Good session.',
            overrides: [
              { evidenceId: r.evidenceId, criterion: 'centring', mark: 15, reason: 'Within 1 cm.' },
            ],
          },
        };
      },
      foreign: () =>
        foreignFeedback(app().db, (r) => ({
          url: reportUrl(r.uuid),
          payload: {
            comment: '',
            overrides: [{ evidenceId: r.evidenceId, criterion: 'centring', mark: 20, reason: 'x' }],
          },
        })),
    },
    'GET /api/v1/notification/mine': {
      build: async () => ({ url: '/api/v1/notification/mine' }),
    },
    'POST /api/v1/notification/mine/:notificationId/read': {
      build: async (as) => ({
        url: `/api/v1/notification/mine/${await notificationOf(app().db, as.sub)}/read`,
      }),
      foreign: async () => [
        {
          as: learner,
          what: "another learner's notification",
          req: {
            url: `/api/v1/notification/mine/${await notificationOf(app().db, otherLearner.sub)}/read`,
          },
        },
      ],
    },
  };
}

const hostile = hostileText(['', ' ', '\u0000', '../../x', "'; drop table evidence; --", '=1+1']);
const actor = fc.constantFrom(educator.sub, otherEducator.sub, learner.sub, orgAdmin.sub);
const reportChoice = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('@mine', '@other') },
  fc.uuid(),
  hostile.map(encodeURIComponent),
);

async function reportFor(db: Queryable, choice: string) {
  if (choice === '@mine') return markedReport(db, learner.sub);
  if (choice === '@other') return markedReport(db, otherLearner.sub);
  return { uuid: choice, evidenceId: 1 };
}

const body = (value: unknown) =>
  value === undefined ? {} : { body: typeof value === 'string' ? value : JSON.stringify(value) };

export const feedbackFuzzers: Record<string, Fuzzer> = {
  'PUT /api/v1/report/:reportId/evidence/:evidenceId/feedback': fuzzer({
    input: fc.record({
      as: actor,
      report: reportChoice,
      evidence: fc.oneof(
        { weight: 3, arbitrary: fc.constant('@own') },
        fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
        hostile.map(encodeURIComponent),
      ),
      body: fc.oneof(
        fc.constant(undefined),
        fc.record({ comment: fc.oneof(hostile, fc.string({ minLength: 3990, maxLength: 4010 })) }),
        anyJson(hostile),
      ),
    }),
    async request(ctx, input) {
      const r = await reportFor(ctx.t.db, input.report);
      const evidence = input.evidence === '@own' ? String(r.evidenceId) : input.evidence;
      return {
        method: 'PUT',
        url: `/api/v1/report/${r.uuid}/evidence/${evidence}/feedback`,
        headers: { ...(await writeHeaders(input.as)), 'content-type': 'application/json' },
        ...body(input.body),
      };
    },
  }),
  'PUT /api/v1/report/:reportId/feedback': fuzzer({
    input: fc.record({
      as: actor,
      report: reportChoice,
      comment: fc.oneof(hostile, fc.integer(), fc.constant(null)),
      overrides: fc.oneof(
        fc.constant(undefined),
        anyJson(hostile),
        fc.array(
          fc.record(
            {
              evidenceId: fc.oneof(fc.constant('@own'), fc.integer()),
              criterion: fc.oneof(
                fc.constantFrom('centring', 'dose', 'kV', 'repeats', 'Centring'),
                hostile,
              ),
              mark: fc.oneof(fc.double(), fc.integer({ min: -1, max: 25 }), hostile),
              reason: fc.oneof(hostile, fc.string({ minLength: 495, maxLength: 505 })),
            },
            { requiredKeys: [] },
          ),
          { maxLength: 3 },
        ),
      ),
    }),
    async request(ctx, input) {
      const r = await reportFor(ctx.t.db, input.report);
      const overrides = Array.isArray(input.overrides)
        ? // anyJson may put anything in the list (null, numbers…): only records name an image.
          input.overrides.map((o: unknown) =>
            o !== null && typeof o === 'object' && (o as { evidenceId?: unknown }).evidenceId === '@own'
              ? { ...o, evidenceId: r.evidenceId }
              : o,
          )
        : input.overrides;
      return {
        method: 'PUT',
        url: reportUrl(r.uuid),
        headers: { ...(await writeHeaders(input.as)), 'content-type': 'application/json' },
        ...body({ comment: input.comment, ...(overrides === undefined ? {} : { overrides }) }),
      };
    },
  }),
  'POST /api/v1/notification/mine/:notificationId/read': fuzzer({
    input: fc.record({
      as: fc.constantFrom(learner.sub, otherLearner.sub, educator.sub),
      id: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('@mine', '@other') },
        fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
        hostile.map(encodeURIComponent),
      ),
    }),
    async request(ctx, input) {
      const id =
        input.id === '@mine'
          ? await notificationOf(ctx.t.db, learner.sub)
          : input.id === '@other'
            ? await notificationOf(ctx.t.db, otherLearner.sub)
            : input.id;
      return {
        method: 'POST',
        url: `/api/v1/notification/mine/${id}/read`,
        headers: await writeHeaders(input.as),
      };
    },
  }),
};
