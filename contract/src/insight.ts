import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4 } from './common';

/**
 * Cohort insight (issue #23 points 4–5): what an organisation's learners did and how well, from
 * the API's own marks (never the simulator's claimed score). A "projection" is an image's
 * practice activity (e.g. "Knee AP"); a "rejected" image is one whose mark falls below the pass
 * mark of its configuration's scheme; a "repeat" is an image of a projection the session already
 * held an image of. Doses are given as a ratio to the diagnostic reference level of the image's
 * scheme (1 = at the DRL), so projections with different DRLs compare.
 */

const strict = { additionalProperties: false } as const;
const DateOnly = Type.String({ format: 'date' });

/** Longest range one insight request may cover (a year and a leap day). */
export const INSIGHT_MAX_RANGE_DAYS = 366;
/** Range the insight screen opens with. */
export const INSIGHT_DEFAULT_RANGE_DAYS = 90;

/**
 * GET /api/v1/organisation/{id}/insight and …/insight/export.csv. `from`/`to` are inclusive
 * calendar days (UTC); both default to the last 90 days; `to` before `from` or a range over
 * INSIGHT_MAX_RANGE_DAYS is a 400 on the field. `configuration` is a configuration's name (as the
 * report filters use it), `learner` a user id (uuid, as every user id) of the organisation.
 */
export const InsightQuery = Type.Object(
  {
    from: Type.Optional(DateOnly),
    to: Type.Optional(DateOnly),
    productId: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INT4 })),
    configuration: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    learner: Type.Optional(Type.String({ format: 'uuid' })),
  },
  strict,
);
export type InsightQuery = Static<typeof InsightQuery>;

export const InsightParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAX_INT4 }) });
export type InsightParams = Static<typeof InsightParams>;

const Ratio = Type.Union([Type.Number(), Type.Null()]);

/** One calendar week (Monday, UTC) of the range; weeks without sessions are listed with zeros. */
export const InsightWeek = Type.Object({
  weekStart: DateOnly,
  sessions: Type.Integer(),
  activeLearners: Type.Integer(),
});
export type InsightWeek = Static<typeof InsightWeek>;

export const InsightProjection = Type.Object({
  projection: Type.String(),
  images: Type.Integer(),
  /** Share (0–1) of the images that repeated a projection within their session. */
  repeatRate: Type.Number(),
  /** Share (0–1) of the marked images below their scheme's pass mark; null with none marked. */
  rejectRate: Ratio,
  /** Median and 75th percentile of dose ÷ DRL; null without a dose criterion. */
  medianDoseToDrl: Ratio,
  p75DoseToDrl: Ratio,
  /** Mean image mark, percent; null with none marked. */
  meanMark: Ratio,
});
export type InsightProjection = Static<typeof InsightProjection>;

export const InsightLearner = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  /** Display name (or "Learner from <platform>" as the user lists show it). */
  name: Type.String(),
  sessions: Type.Integer(),
  meanMark: Ratio,
  /** Mark of the last marked session minus the first's, percentage points; null with fewer than two. */
  firstToLastChange: Ratio,
  lastActive: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type InsightLearner = Static<typeof InsightLearner>;

export const Insight = Type.Object({
  organisationId: Type.Integer(),
  from: DateOnly,
  to: DateOnly,
  totals: Type.Object({
    sessions: Type.Integer(),
    activeLearners: Type.Integer(),
    images: Type.Integer(),
    meanMark: Ratio,
  }),
  weeks: Type.Array(InsightWeek),
  /** Ordered by images, most first. */
  projections: Type.Array(InsightProjection),
  /** Ordered by name; every learner with a session in the range. */
  learners: Type.Array(InsightLearner),
});
export type Insight = Static<typeof Insight>;

/** GET /api/v1/report/progress: the signed-in learner's own trend per projection. */
export const ProgressPoint = Type.Object({
  /** The report (session uuid) the mark comes from, for a link to it. */
  reportId: Type.String({ format: 'uuid' }),
  recorded: Type.String({ format: 'date-time' }),
  /** Mean mark of the projection's images in that session, percent. */
  mark: Type.Number(),
});
export type ProgressPoint = Static<typeof ProgressPoint>;

export const ProgressProjection = Type.Object({
  projection: Type.String(),
  /** Oldest first; at most PROGRESS_MAX_POINTS, the most recent ones. */
  points: Type.Array(ProgressPoint),
});
export type ProgressProjection = Static<typeof ProgressProjection>;

export const PROGRESS_MAX_POINTS = 50;

export const Progress = Type.Object({ projections: Type.Array(ProgressProjection) });
export type Progress = Static<typeof Progress>;

/** Columns of export.csv, in order (the header row carries these names). */
export const INSIGHT_EXPORT_COLUMNS = [
  'learner',
  'learner_email',
  'session',
  'recorded',
  'product',
  'configuration',
  'projection',
  'image_mark',
  'session_score',
  'repeat',
  'dap_mgy_cm2',
  'dose_to_drl',
  'criteria',
  'image_feedback',
  'report_feedback',
] as const;
