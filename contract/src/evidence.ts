import { Type, type Static } from '@sinclair/typebox';
import { FeedbackComment, MarkOverride } from './feedback';
import { ImageMarks } from './marking';

/** Evidence kinds: an X-ray image, or one part of a radiation-safety lesson (docs/requirements.md#data). */
export const EVIDENCE_TYPES = ['xray_image', 'rs_lesson_part'] as const;
export const LESSON_PARTS_PER_LESSON = 2;
/** Lesson doses are extrapolated to 15 minutes of fluoroscopy (docs/requirements.md#limits-and-defaults). */
export const FLUOROSCOPY_SECONDS = 900;

const Scalar = Type.Union([Type.String({ maxLength: 255 }), Type.Number(), Type.Boolean()]);
/** Free-form key/value readouts, bounded so a simulator cannot store megabytes of JSON. */
const Readout = Type.Record(Type.String({ maxLength: 64 }), Scalar, { maxProperties: 40 });

export const TubeSettings = Type.Object(
  {
    /** Tube voltage, kV. */
    kV: Type.Number({ minimum: 40, maximum: 150 }),
    /** Tube current-time product, mAs. */
    mAs: Type.Number({ minimum: 0.1, maximum: 1000 }),
    /** Source-to-image distance, cm. */
    sidCm: Type.Number({ minimum: 50, maximum: 250 }),
  },
  { additionalProperties: false },
);
export type TubeSettings = Static<typeof TubeSettings>;

export const DoseValues = Type.Object(
  {
    /** Dose-area product, mGy*cm². */
    dapMGyCm2: Type.Number({ minimum: 0, maximum: 100000 }),
    /** Entrance surface dose, µGy (optional). */
    entranceDoseUGy: Type.Optional(Type.Number({ minimum: 0, maximum: 1000000 })),
  },
  { additionalProperties: false },
);
export type DoseValues = Static<typeof DoseValues>;

/** Doses measured at the operator's eye, chest and hip, µSv over `doseTime` seconds. */
export const LessonDoses = Type.Object(
  {
    eye: Type.Number({ minimum: 0, maximum: 1000000 }),
    chest: Type.Number({ minimum: 0, maximum: 1000000 }),
    hip: Type.Number({ minimum: 0, maximum: 1000000 }),
  },
  { additionalProperties: false },
);
export type LessonDoses = Static<typeof LessonDoses>;

export const LessonData = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    /** Which lesson of the session (from 0). */
    index: Type.Integer({ minimum: 0, maximum: 99 }),
    /** Which part of the lesson (0 or 1; LESSON_PARTS_PER_LESSON parts). */
    partIndex: Type.Integer({ minimum: 0, maximum: LESSON_PARTS_PER_LESSON - 1 }),
    /** Number of lessons in the session. */
    count: Type.Integer({ minimum: 1, maximum: 100 }),
    partId: Type.String({ minLength: 1, maxLength: 64 }),
    /** Seconds of exposure the doses were measured over. */
    doseTime: Type.Number({ exclusiveMinimum: 0, maximum: 3600 }),
    doses: LessonDoses,
  },
  { additionalProperties: false },
);
export type LessonData = Static<typeof LessonData>;

/**
 * What the simulator measured of an X-ray image, for marking (issue #23): each value optional, so
 * evidence of a simulator that does not measure it leaves that criterion "not assessed".
 */
export const ImageQuality = Type.Object(
  {
    /** Distance of the central ray from the region's centre, mm. */
    centringErrorMm: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
    /** Collimated field area over the region of interest's area (1 = exactly the region). */
    collimationRatio: Type.Optional(Type.Number({ minimum: 0, maximum: 50 })),
    /** Deviation index (IEC 62494-1): 0 on target, +3 twice the exposure needed. */
    deviationIndex: Type.Optional(Type.Number({ minimum: -30, maximum: 30 })),
  },
  { additionalProperties: false },
);
export type ImageQuality = Static<typeof ImageQuality>;

export const EvidenceData = Type.Object(
  {
    meta: Type.Object(
      { type: Type.Union(EVIDENCE_TYPES.map((t) => Type.Literal(t))) },
      { additionalProperties: false },
    ),
    /** Scene settings: body area, projection, patient position… */
    settings: Readout,
    /** What the simulated console showed. */
    console: Readout,
    tube: TubeSettings,
    dose: DoseValues,
    lesson: Type.Optional(LessonData),
    quality: Type.Optional(ImageQuality),
  },
  { additionalProperties: false },
);
export type EvidenceData = Static<typeof EvidenceData>;

export const Evidence = Type.Object({
  id: Type.Integer(),
  userName: Type.String(),
  userEmail: Type.String(),
  practiceActivity: Type.String(),
  analysis: Type.Union([Type.String(), Type.Null()]),
  /** Lookup id of analysis_status: 22001 not analysed, 22002 accepted, 22003 rejected. */
  analysisStatus: Type.Integer(),
  evidenceData: EvidenceData,
  hasImage: Type.Boolean(),
  /**
   * The API's marks of the image; null when it was not marked (no scheme, or a lesson part) or
   * is not marked yet (`markingPending`).
   */
  marks: Type.Union([ImageMarks, Type.Null()]),
  /**
   * The image waits for the API's marking, which runs shortly after the upload: its marks come
   * then, and the report has no score until every image is marked.
   */
  markingPending: Type.Boolean(),
  /** An educator's comment on the image (issue #23 point 3); null: none. */
  feedback: Type.Union([FeedbackComment, Type.Null()]),
  /** Criteria whose mark an educator replaced; `marks` already carries the new marks. */
  overrides: Type.Array(MarkOverride),
});
export type Evidence = Static<typeof Evidence>;
