import {
  LESSON_PARTS_PER_LESSON,
  type EvidenceSubmission,
  type SimulatorSession,
  type TubeSettings,
} from '@portal/contract';
import { bodyAreaFor, type BodyArea } from './body-areas';
import { LESSON_FIELD_CM, lessonFor, lessonPartDoses, lessonTube, type LessonPlan } from './lesson-doses';
import {
  deviationIndex,
  doseAreaProduct,
  entranceSurfaceDoseUGy,
  rateExposure,
  roundTo,
  type ExposureRating,
} from './physics';
import { createRandom, hashSeed } from './random';
import { renderRadiograph, type Radiograph, type RenderOptions, type Side } from './render';

/** What a session captures: X-ray images of a body area, or the parts of a radiation-safety lesson. */
export type SessionPlan = { kind: 'xray'; area: BodyArea } | { kind: 'lesson'; lesson: LessonPlan };

export function planFor(session: Pick<SimulatorSession, 'configuration' | 'categoryName'>): SessionPlan {
  const lesson = lessonFor(session.configuration);
  if (lesson) return { kind: 'lesson', lesson };
  return { kind: 'xray', area: bodyAreaFor(session.configuration, session.categoryName) };
}

/** Technique the page and the CLI start from. */
export function defaultTube(plan: SessionPlan): TubeSettings {
  return plan.kind === 'xray' ? { ...plan.area.defaults } : lessonTube(plan.lesson.parts[0]);
}

export interface CaptureSummary {
  practiceActivity: string;
  tube: TubeSettings;
  dapMGyCm2: number;
  /** X-ray images only. */
  deviationIndex?: number;
  exposure?: ExposureRating;
  /** Lesson parts only. */
  lessonPart?: { index: number; partIndex: number; title: string; distanceM: number; doseTime: number; doses: { eye: number; chest: number; hip: number } };
}

export interface Capture {
  submission: EvidenceSubmission;
  /** PNG bytes; lesson parts are submitted without an image. */
  image: Buffer | null;
  summary: CaptureSummary;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface CaptureOptions {
  /**
   * Makes the picture; renderRadiograph by default. A caller making many captures (the API's
   * demo seed) may answer from a few pictures rendered once per body area, side and technique.
   */
  render?: (options: RenderOptions) => Radiograph;
  /** How well the patient was positioned and the field collimated; drawn from the seed if absent. */
  positioning?: Positioning;
}

/** What the marking criteria of the portal read besides the technique (contract ImageQuality). */
export interface Positioning {
  /** Central ray from the region's centre, mm. */
  centringErrorMm: number;
  /** Collimated field over the region (1 = exactly the region, below 1 anatomy is cut off). */
  collimationRatio: number;
}

/**
 * A learner's positioning, with the spread of practice: centring off by |N(0, 8 mm)| (most within
 * a centimetre, a few beyond two), the field 1 + |N(0, 0.3)| times the region, and about one image
 * in thirty collimated too tight.
 */
export function positioningOf(seed: string): Positioning {
  const random = createRandom(`${seed}:positioning`);
  const centringErrorMm = roundTo(Math.abs(random.gaussian()) * 8, 1);
  const tight = random.next() < 1 / 30;
  const collimationRatio = tight
    ? roundTo(random.between(0.85, 0.98), 2)
    : roundTo(1 + Math.abs(random.gaussian()) * 0.3, 2);
  return { centringErrorMm, collimationRatio };
}

/**
 * Image number `sequence` (from 0) of the session, taken with `tube`. The session uuid and the
 * number seed the image, so the same capture renders the same picture again.
 */
export function captureImage(
  session: Pick<SimulatorSession, 'uuid' | 'configuration'>,
  area: BodyArea,
  tube: TubeSettings,
  sequence: number,
  { render = renderRadiograph, positioning }: CaptureOptions = {},
): Capture {
  const seed = `${session.uuid}:${sequence}`;
  const placed = positioning ?? positioningOf(seed);
  const side: Side = hashSeed(`${seed}:side`) % 2 === 0 ? 'right' : 'left';
  const radiograph = render({ area, tube, side, seed });
  const deviation = roundTo(deviationIndex(tube, area.defaults, area.softRefCm), 1);
  const exposure = rateExposure(deviation);
  const dap = roundTo(doseAreaProduct(tube, area.fieldCm), 2);
  const practiceActivity = `${capitalise(area.label)} ${area.projection}${area.paired ? ` (${side})` : ''}`;
  const submission: EvidenceSubmission = {
    practiceActivity,
    evidenceData: {
      meta: { type: 'xray_image' },
      settings: {
        configuration: session.configuration,
        bodyArea: area.key,
        projection: area.projection,
        side,
        fieldWidthCm: area.fieldCm[0],
        fieldHeightCm: area.fieldCm[1],
        imageNumber: sequence + 1,
      },
      console: {
        kV: tube.kV,
        mAs: tube.mAs,
        sidCm: tube.sidCm,
        deviationIndex: deviation,
        exposure,
        meanPixelValue: Math.round(radiograph.meanFieldValue),
      },
      tube: { ...tube },
      dose: {
        dapMGyCm2: dap,
        entranceDoseUGy: roundTo(entranceSurfaceDoseUGy(tube, area.thicknessCm), 1),
      },
      quality: { ...placed, deviationIndex: deviation },
    },
  };
  return { submission, image: radiograph.png, summary: { practiceActivity, tube, dapMGyCm2: dap, deviationIndex: deviation, exposure } };
}

/**
 * Lesson part number `sequence` (from 0) of the session: parts alternate 0, 1 within each of
 * `lessonCount` runs of the same lesson.
 */
export function captureLessonPart(session: Pick<SimulatorSession, 'uuid' | 'configuration'>, lesson: LessonPlan, sequence: number, lessonCount = 1): Capture {
  const index = Math.floor(sequence / LESSON_PARTS_PER_LESSON);
  const partIndex = sequence % LESSON_PARTS_PER_LESSON;
  const part = lesson.parts[partIndex === 0 ? 0 : 1];
  const doses = lessonPartDoses(part, `${session.uuid}:${sequence}`);
  const tube = lessonTube(part);
  const dap = roundTo(doseAreaProduct(tube, LESSON_FIELD_CM), 1);
  const practiceActivity = `${lesson.title}: part ${partIndex + 1} of ${LESSON_PARTS_PER_LESSON}`;
  const submission: EvidenceSubmission = {
    practiceActivity,
    evidenceData: {
      meta: { type: 'rs_lesson_part' },
      settings: {
        configuration: session.configuration,
        lesson: lesson.id,
        part: part.title,
        operatorDistanceM: part.distanceM,
        leadApron: part.shielding.apron,
        ceilingScreen: part.shielding.ceilingScreen,
        tableSkirt: part.shielding.tableSkirt,
      },
      console: { kV: tube.kV, mA: 2, fluoroscopyTimeS: part.doseTimeS },
      tube,
      dose: { dapMGyCm2: dap },
      lesson: {
        id: lesson.id,
        index,
        partIndex,
        count: Math.max(lessonCount, index + 1),
        partId: part.partId,
        doseTime: part.doseTimeS,
        doses,
      },
    },
  };
  return {
    submission,
    image: null,
    summary: { practiceActivity, tube, dapMGyCm2: dap, lessonPart: { index, partIndex, title: part.title, distanceM: part.distanceM, doseTime: part.doseTimeS, doses } },
  };
}

/** The next capture of a session that already holds `sequence` evidence. */
export function captureNext(session: Pick<SimulatorSession, 'uuid' | 'configuration'>, plan: SessionPlan, sequence: number, tube?: TubeSettings, lessonCount = 1): Capture {
  if (plan.kind === 'lesson') return captureLessonPart(session, plan.lesson, sequence, lessonCount);
  return captureImage(session, plan.area, tube ?? plan.area.defaults, sequence);
}

/** The report's one-line summary, e.g. "3 images of the knee". */
export function reportSummary(plan: SessionPlan, evidenceCount: number): string {
  if (plan.kind === 'lesson') {
    const lessons = Math.floor(evidenceCount / LESSON_PARTS_PER_LESSON);
    const parts = `${evidenceCount} lesson part${evidenceCount === 1 ? '' : 's'}`;
    return `${plan.lesson.title} lesson: ${parts} recorded (${lessons} complete lesson${lessons === 1 ? '' : 's'})`;
  }
  if (evidenceCount === 0) return `No images of the ${plan.area.label} were captured`;
  return `${evidenceCount} image${evidenceCount === 1 ? '' : 's'} of the ${plan.area.label}`;
}

/** Share of on-target exposures, 0–100, as the report's score; null without images. */
export function exposureScore(summaries: readonly CaptureSummary[]): number | null {
  const rated = summaries.filter((s) => s.exposure !== undefined);
  if (rated.length === 0) return null;
  return Math.round((100 * rated.filter((s) => s.exposure === 'good').length) / rated.length);
}
