import {
  PARTIAL_SHARE,
  type CriterionMark,
  type EvidenceData,
  type ImageMarks,
  type MarkReason,
  type MarkingScheme,
} from '@portal/contract';

/**
 * Marks one X-ray image against a configuration's marking scheme (contract MarkingScheme). Pure:
 * the evidence, the scheme and how many earlier images of the same projection the session holds.
 *
 * Each criterion holds one measured value against two limits: at most the full limit earns the
 * weight, at most the partial limit `PARTIAL_SHARE` of it, beyond that nothing. Exactly at a limit
 * counts as within it. A value the evidence lacks leaves the criterion "not assessed".
 */
export interface ImageToMark {
  evidenceData: EvidenceData;
  /** Earlier images of the same projection in the session. */
  earlierAttempts: number;
}

type Criteria = MarkingScheme['criteria'];

interface Band {
  /** How far off the value is, in the criterion's unit; 0 = on target. */
  deviation: number;
  full: number;
  partial: number;
  /** Why points were lost, when they were. */
  fault: MarkReason;
  /** What the report shows: the measured value and the limit it broke (or the full limit). */
  value: number;
}

function graded(criterion: CriterionMark['criterion'], weight: number, band: Band): CriterionMark {
  const { deviation, full, partial, fault, value } = band;
  if (deviation <= full) {
    return { criterion, mark: weight, max: weight, reason: 'met', value, limit: full };
  }
  const mark = deviation <= partial ? roundMark(weight * PARTIAL_SHARE) : 0;
  return {
    criterion,
    mark,
    max: weight,
    reason: fault,
    value,
    limit: deviation <= partial ? full : partial,
  };
}

function notAssessed(criterion: CriterionMark['criterion'], weight: number): CriterionMark {
  return { criterion, mark: null, max: weight, reason: 'not_assessed', value: null, limit: null };
}

const roundMark = (n: number) => Math.round(n * 100) / 100;
const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** A range criterion: below `min` or above `max` by `off`, each direction its own fault. */
function outside(value: number, min: number, max: number) {
  if (value < min) return { off: min - value, low: true };
  if (value > max) return { off: value - max, low: false };
  return { off: 0, low: false };
}

const MARKERS: {
  [K in keyof Criteria]-?: (rule: NonNullable<Criteria[K]>, image: ImageToMark) => CriterionMark;
} = {
  centring(rule, { evidenceData }) {
    const mm = evidenceData.quality?.centringErrorMm;
    if (!finite(mm)) return notAssessed('centring', rule.weight);
    return graded('centring', rule.weight, {
      deviation: mm,
      full: rule.fullWithinMm,
      partial: rule.partialWithinMm,
      fault: 'off_centre',
      value: mm,
    });
  },
  collimation(rule, { evidenceData }) {
    const ratio = evidenceData.quality?.collimationRatio;
    if (!finite(ratio)) return notAssessed('collimation', rule.weight);
    if (ratio < 1) {
      // Anatomy outside the field cannot be made up for: the image misses part of the region.
      return {
        criterion: 'collimation',
        mark: 0,
        max: rule.weight,
        reason: 'collimation_cut_off',
        value: ratio,
        limit: 1,
      };
    }
    return graded('collimation', rule.weight, {
      deviation: ratio,
      full: rule.fullAtMostRatio,
      partial: rule.partialAtMostRatio,
      fault: 'collimation_wide',
      value: ratio,
    });
  },
  kV(rule, { evidenceData }) {
    const kV = evidenceData.tube?.kV;
    if (!finite(kV)) return notAssessed('kV', rule.weight);
    const { off, low } = outside(kV, rule.min, rule.max);
    const mark = graded('kV', rule.weight, {
      deviation: off,
      full: 0,
      partial: rule.partialTolerance,
      fault: low ? 'kv_low' : 'kv_high',
      value: kV,
    });
    // The limit shown is the range's edge the value passed (or, beyond the tolerance, the edge
    // plus the tolerance), in kV rather than as a distance.
    return { ...mark, limit: rangeLimit(mark, low, rule.min, rule.max, rule.partialTolerance) };
  },
  mAs(rule, { evidenceData }) {
    const mAs = evidenceData.tube?.mAs;
    if (!finite(mAs)) return notAssessed('mAs', rule.weight);
    const { off, low } = outside(mAs, rule.min, rule.max);
    // The tolerance is relative to the edge passed: 20 % above a 5 mAs maximum is 6 mAs.
    const edge = low ? rule.min : rule.max;
    const tolerance = (edge * rule.partialTolerancePercent) / 100;
    const mark = graded('mAs', rule.weight, {
      deviation: off,
      full: 0,
      partial: tolerance,
      fault: low ? 'mas_low' : 'mas_high',
      value: mAs,
    });
    return { ...mark, limit: rangeLimit(mark, low, rule.min, rule.max, tolerance) };
  },
  dose(rule, { evidenceData }) {
    const dap = evidenceData.dose?.dapMGyCm2;
    if (!finite(dap)) return notAssessed('dose', rule.weight);
    return graded('dose', rule.weight, {
      deviation: dap,
      full: rule.drlDapMGyCm2,
      partial: (rule.drlDapMGyCm2 * rule.partialAtMostPercent) / 100,
      fault: 'dose_above_drl',
      value: dap,
    });
  },
  exposureIndex(rule, { evidenceData }) {
    const di = evidenceData.quality?.deviationIndex;
    if (!finite(di)) return notAssessed('exposureIndex', rule.weight);
    const mark = graded('exposureIndex', rule.weight, {
      deviation: Math.abs(di),
      full: rule.fullWithin,
      partial: rule.partialWithin,
      fault: di < 0 ? 'underexposed' : 'overexposed',
      value: di,
    });
    // Shown with the sign of the fault: −1.5 for an underexposed image, +1.5 for an overexposed.
    return mark.limit !== null && di < 0 ? { ...mark, limit: -mark.limit } : mark;
  },
  repeats(rule, { earlierAttempts }) {
    return graded('repeats', rule.weight, {
      deviation: earlierAttempts,
      full: rule.fullAtMost,
      partial: rule.partialAtMost,
      fault: 'repeated',
      value: earlierAttempts,
    });
  },
};

function rangeLimit(
  mark: CriterionMark,
  low: boolean,
  min: number,
  max: number,
  tolerance: number,
): number {
  if (mark.reason === 'met') return low ? min : max;
  const partial = mark.mark !== 0;
  if (low) return partial ? min : min - tolerance;
  return partial ? max : max + tolerance;
}

/** The image's marks, criteria in the contract's order; its score is the share of assessed marks. */
export function markImage(scheme: MarkingScheme, image: ImageToMark): ImageMarks {
  const criteria: CriterionMark[] = [];
  for (const name of Object.keys(MARKERS) as (keyof Criteria)[]) {
    const rule = scheme.criteria[name];
    if (!rule) continue;
    const marker = MARKERS[name] as (r: typeof rule, i: ImageToMark) => CriterionMark;
    criteria.push(marker(rule, image));
  }
  return { score: imageScore(criteria), criteria };
}

/** Percent of the assessed criteria's marks, two decimals; null when none was assessed. */
export function imageScore(criteria: readonly CriterionMark[]): number | null {
  let earned = 0;
  let possible = 0;
  for (const c of criteria) {
    if (c.mark === null) continue;
    earned += c.mark;
    possible += c.max;
  }
  return possible > 0 ? Math.round((earned / possible) * 10000) / 100 : null;
}
