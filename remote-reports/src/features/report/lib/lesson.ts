import type { Evidence, LessonDoses } from '@portal/contract';
import { FLUOROSCOPY_SECONDS, LESSON_PARTS_PER_LESSON } from '../../../config/constants';

export const DOSE_LOCATIONS = ['eye', 'chest', 'hip'] as const satisfies readonly (keyof LessonDoses)[];
export type DoseLocation = (typeof DOSE_LOCATIONS)[number];

export interface LessonPart {
  /** Position of the evidence in the report, from 0 (names it "Image n"). */
  evidenceIndex: number;
  evidence: Evidence;
  /** µSv over FLUOROSCOPY_SECONDS. */
  doses: LessonDoses;
}

export interface Lesson {
  /** lesson.index, from 0. */
  index: number;
  /** By partIndex; a part the simulator has not sent is null. */
  parts: (LessonPart | null)[];
  /** Percent change from part 1 to part 2 per location; null when it cannot be computed. */
  difference: Record<DoseLocation, number | null>;
}

/** Lesson parts without lesson data cannot be placed in a lesson; they show as plain images. */
export const isLessonEvidence = (evidence: Evidence): boolean =>
  evidence.evidenceData.meta.type === 'rs_lesson_part' && evidence.evidenceData.lesson !== undefined;

/** A dose measured over `doseTime` seconds, extrapolated to 15 minutes of fluoroscopy (docs/requirements.md#limits-and-defaults). */
export function scaleDose(dose: number, doseTime: number): number {
  return doseTime > 0 ? (dose / doseTime) * FLUOROSCOPY_SECONDS : 0;
}

/**
 * Percent change from part 1 to part 2, rounded to whole percent; under 0.5 % either way it is
 * shown as 0 (docs/requirements.md#limits-and-defaults). From a zero dose only "no change" can be expressed.
 */
export function percentDifference(first: number, second: number): number | null {
  if (first === 0) return second === 0 ? 0 : null;
  const diff = ((second - first) / first) * 100;
  if (Math.abs(diff) < 0.5) return 0;
  return Math.round(diff);
}

/** Lesson parts grouped by lesson (lesson.index), each with its LESSON_PARTS_PER_LESSON parts. */
export function groupLessons(evidence: readonly Evidence[]): Lesson[] {
  const byIndex = new Map<number, (LessonPart | null)[]>();
  evidence.forEach((item, evidenceIndex) => {
    const lesson = item.evidenceData.lesson;
    if (!isLessonEvidence(item) || !lesson) return;
    const parts = byIndex.get(lesson.index) ?? Array.from({ length: LESSON_PARTS_PER_LESSON }, () => null);
    if (lesson.partIndex >= 0 && lesson.partIndex < LESSON_PARTS_PER_LESSON) {
      parts[lesson.partIndex] = {
        evidenceIndex,
        evidence: item,
        doses: {
          eye: scaleDose(lesson.doses.eye, lesson.doseTime),
          chest: scaleDose(lesson.doses.chest, lesson.doseTime),
          hip: scaleDose(lesson.doses.hip, lesson.doseTime),
        },
      };
    }
    byIndex.set(lesson.index, parts);
  });

  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, parts]) => {
      const [first, second] = parts;
      const difference = Object.fromEntries(
        DOSE_LOCATIONS.map((location) => [
          location,
          first && second ? percentDifference(first.doses[location], second.doses[location]) : null,
        ]),
      ) as Record<DoseLocation, number | null>;
      return { index, parts, difference };
    });
}
