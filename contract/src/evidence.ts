import { Type, type Static } from '@sinclair/typebox';

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
});
export type Evidence = Static<typeof Evidence>;
