import type { LessonDoses, TubeSettings } from '@portal/contract';
import { createRandom } from './random';

/**
 * Operator doses in the fluoroscopy suite for the radiation-safety lessons. Scatter from the
 * patient is the source: its dose rate falls with the square of the distance, personal shielding
 * cuts it by a fixed factor per body region. Rounded teaching values, not for clinical use.
 */

/** Scattered dose rate at 1 m from the patient at the height of the operator's chest, µSv/s. */
const SCATTER_AT_1_M_USV_PER_S = 0.5;
/** Scatter is strongest at table height (hip) and weaker at eye height. */
const REGION_FACTOR = { eye: 0.6, chest: 1, hip: 1.4 } as const;

export interface Shielding {
  /** Lead apron (0.35 mm Pb): protects chest and hip. */
  apron: boolean;
  /** Ceiling-suspended screen: protects the eyes. */
  ceilingScreen: boolean;
  /** Table skirt: protects the legs and hip from scatter under the table. */
  tableSkirt: boolean;
}

/** Fraction of the scatter that passes each shield, per region. */
const TRANSMISSION = {
  apron: { eye: 1, chest: 0.05, hip: 0.08 },
  ceilingScreen: { eye: 0.1, chest: 0.5, hip: 1 },
  tableSkirt: { eye: 1, chest: 1, hip: 0.3 },
} as const;

export interface LessonPartPlan {
  partId: string;
  /** Shown to the learner and stored with the evidence. */
  title: string;
  distanceM: number;
  doseTimeS: number;
  shielding: Shielding;
}

export interface LessonPlan {
  id: string;
  title: string;
  parts: readonly [LessonPartPlan, LessonPartPlan];
}

const NONE: Shielding = { apron: false, ceilingScreen: false, tableSkirt: false };

/** Part 0 is the poor practice, part 1 the better one, so part 1 always gives lower doses. */
export const LESSONS: Readonly<Record<string, LessonPlan>> = {
  'distance-and-time': {
    id: 'distance-and-time',
    title: 'Distance and time',
    parts: [
      { partId: 'close-and-long', title: 'Standing close to the patient, long screening', distanceM: 0.5, doseTimeS: 120, shielding: NONE },
      { partId: 'far-and-short', title: 'Stepping back, short screening', distanceM: 2, doseTimeS: 45, shielding: NONE },
    ],
  },
  shielding: {
    id: 'shielding',
    title: 'Shielding',
    parts: [
      { partId: 'unshielded', title: 'No protective equipment', distanceM: 1, doseTimeS: 90, shielding: NONE },
      { partId: 'shielded', title: 'Lead apron, ceiling screen and table skirt', distanceM: 1, doseTimeS: 90, shielding: { apron: true, ceilingScreen: true, tableSkirt: true } },
    ],
  },
};

/** The lesson of a configuration (`radiation-safety.lesson.<leaf>`), or null for image leaves. */
export function lessonFor(configuration: string): LessonPlan | null {
  const parts = configuration.split('.');
  if (parts[parts.length - 2] !== 'lesson') return null;
  return LESSONS[parts[parts.length - 1] ?? ''] ?? LESSONS['distance-and-time'] ?? null;
}

/** Doses of one part, µSv over the part's dose time; `seed` adds up to ±5 % measurement scatter. */
export function lessonPartDoses(part: LessonPartPlan, seed: string | number): LessonDoses {
  const random = createRandom(seed);
  const rate = (SCATTER_AT_1_M_USV_PER_S * part.doseTimeS) / part.distanceM ** 2;
  const dose = (region: keyof typeof REGION_FACTOR) => {
    let value = rate * REGION_FACTOR[region];
    for (const shield of Object.keys(TRANSMISSION) as Array<keyof Shielding>) {
      if (part.shielding[shield]) value *= TRANSMISSION[shield][region];
    }
    return Math.round(value * random.between(0.95, 1.05) * 100) / 100;
  };
  return { eye: dose('eye'), chest: dose('chest'), hip: dose('hip') };
}

/** Fluoroscopy technique of a lesson part: 80 kV at 2 mA while screening, 100 cm SID. */
export function lessonTube(part: LessonPartPlan): TubeSettings {
  return { kV: 80, mAs: 2 * part.doseTimeS, sidCm: 100 };
}

/** Field of a fluoroscopy run, cm at the receptor. */
export const LESSON_FIELD_CM = [20, 20] as const;
