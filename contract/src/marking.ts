import { Type, type Static } from '@sinclair/typebox';

/**
 * Marking per image (issue #23 point 1): a product configuration's marking scheme, and what the
 * API stores for every image it marks. The API computes the session's score from these; the
 * score a simulator reports is kept as `reportedScore` and never sent to a learning platform.
 *
 * Every criterion grades one measured value against two limits: at most `full` earns the whole
 * weight, at most `partial` half of it, anything beyond none. A value the evidence does not carry
 * (an older simulator) leaves the criterion "not assessed": it counts neither for nor against.
 */
export const MARKING_CRITERIA = [
  'centring',
  'collimation',
  'kV',
  'mAs',
  'dose',
  'exposureIndex',
  'repeats',
] as const;
export type MarkingCriterion = (typeof MARKING_CRITERIA)[number];

/** Share of a criterion's weight a value within the partial limit earns. */
export const PARTIAL_SHARE = 0.5;

const Weight = Type.Integer({ minimum: 0, maximum: 100 });
const strict = { additionalProperties: false } as const;

export const MarkingScheme = Type.Object(
  {
    /** Percent of the marks a session needs to pass. */
    passMark: Type.Integer({ minimum: 0, maximum: 100 }),
    criteria: Type.Object(
      {
        /** Distance of the central ray from the region's centre, mm. */
        centring: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              fullWithinMm: Type.Number({ minimum: 0, maximum: 500 }),
              partialWithinMm: Type.Number({ minimum: 0, maximum: 500 }),
            },
            strict,
          ),
        ),
        /**
         * Collimated field over the region of interest (1 = exactly the region). Above 1 the
         * field is wider than needed; below 1 anatomy is cut off, which earns nothing.
         */
        collimation: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              fullAtMostRatio: Type.Number({ minimum: 1, maximum: 20 }),
              partialAtMostRatio: Type.Number({ minimum: 1, maximum: 20 }),
            },
            strict,
          ),
        ),
        /** Tube voltage against the reference range; `partialTolerance` kV beyond it earns half. */
        kV: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              min: Type.Number({ minimum: 40, maximum: 150 }),
              max: Type.Number({ minimum: 40, maximum: 150 }),
              partialTolerance: Type.Number({ minimum: 0, maximum: 50 }),
            },
            strict,
          ),
        ),
        /** mAs against the reference range; within `partialTolerancePercent` beyond it earns half. */
        mAs: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              min: Type.Number({ minimum: 0.1, maximum: 1000 }),
              max: Type.Number({ minimum: 0.1, maximum: 1000 }),
              partialTolerancePercent: Type.Number({ minimum: 0, maximum: 500 }),
            },
            strict,
          ),
        ),
        /**
         * Dose-area product against the diagnostic reference level: at or below it full marks, up
         * to `partialAtMostPercent` of it half.
         */
        dose: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              drlDapMGyCm2: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }),
              partialAtMostPercent: Type.Number({ minimum: 100, maximum: 1000 }),
            },
            strict,
          ),
        ),
        /** Absolute deviation index (IEC 62494-1). */
        exposureIndex: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              fullWithin: Type.Number({ minimum: 0, maximum: 20 }),
              partialWithin: Type.Number({ minimum: 0, maximum: 20 }),
            },
            strict,
          ),
        ),
        /** Earlier images of the same projection in the session. */
        repeats: Type.Optional(
          Type.Object(
            {
              weight: Weight,
              fullAtMost: Type.Integer({ minimum: 0, maximum: 50 }),
              partialAtMost: Type.Integer({ minimum: 0, maximum: 50 }),
            },
            strict,
          ),
        ),
      },
      strict,
    ),
  },
  strict,
);
export type MarkingScheme = Static<typeof MarkingScheme>;

/**
 * Why a criterion earned what it did. `met`: full marks; `not_assessed`: the evidence lacks the
 * value; the rest name the fault behind lost points.
 */
export const MARK_REASONS = [
  'met',
  'not_assessed',
  'off_centre',
  'collimation_wide',
  'collimation_cut_off',
  'kv_low',
  'kv_high',
  'mas_low',
  'mas_high',
  'dose_above_drl',
  'underexposed',
  'overexposed',
  'repeated',
] as const;
export type MarkReason = (typeof MARK_REASONS)[number];

export const CriterionMark = Type.Object({
  criterion: Type.Union(MARKING_CRITERIA.map((c) => Type.Literal(c))),
  /** Null when not assessed. */
  mark: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Number(),
  reason: Type.Union(MARK_REASONS.map((r) => Type.Literal(r))),
  /** The measured value and the limit it was held against, in the criterion's unit. */
  value: Type.Union([Type.Number(), Type.Null()]),
  limit: Type.Union([Type.Number(), Type.Null()]),
});
export type CriterionMark = Static<typeof CriterionMark>;

/** One image's marks: the criteria, and its percentage of the assessed marks (null: none). */
export const ImageMarks = Type.Object({
  score: Type.Union([Type.Number(), Type.Null()]),
  criteria: Type.Array(CriterionMark),
});
export type ImageMarks = Static<typeof ImageMarks>;

/** Per configuration: GET/PUT /api/v1/product/{id}/configuration/{configurationId}/marking-scheme. */
export const MarkingSchemeBody = Type.Object(
  { scheme: Type.Union([MarkingScheme, Type.Null()]) },
  strict,
);
export type MarkingSchemeBody = Static<typeof MarkingSchemeBody>;

/** When grades go to the learning platform (issue #23 point 2). */
export const GRADE_RELEASE_POLICIES = ['automatic', 'after_review'] as const;
export type GradeReleasePolicy = (typeof GRADE_RELEASE_POLICIES)[number];
export const GradeReleasePolicy = Type.Union(GRADE_RELEASE_POLICIES.map((p) => Type.Literal(p)));

/** A report's grade: the computed score and whether it went (or waits) to the platform. */
export const ReportGrade = Type.Object({
  /** Percent, computed from the images' marks; null without marked images. */
  score: Type.Union([Type.Integer(), Type.Null()]),
  /** What the simulator claimed; shown, never posted. */
  reportedScore: Type.Union([Type.Integer(), Type.Null()]),
  passMark: Type.Union([Type.Integer(), Type.Null()]),
  /**
   * `not_applicable`: not launched from a platform that takes grades; `pending`: waits for an
   * educator's release; `released`: sent (automatically or by an educator).
   */
  release: Type.Union([
    Type.Literal('not_applicable'),
    Type.Literal('pending'),
    Type.Literal('released'),
  ]),
  releasedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** Whether the caller may release it now. */
  canRelease: Type.Boolean(),
});
export type ReportGrade = Static<typeof ReportGrade>;
