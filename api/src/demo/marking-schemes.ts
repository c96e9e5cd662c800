import type { MarkingScheme } from '@portal/contract';
import { BODY_AREAS, doseAreaProduct, type BodyArea } from '@portal/xray';

/**
 * Marking schemes of the demo radiography configurations (issue #23), one per body area, from
 * the simulator's standard technique of that area (tools/xray/src/body-areas.ts):
 *
 * - kV: the standard ±5 kV, 5 kV more earns half (a 10 kV step roughly doubles the exposure).
 * - mAs: the standard −20 %/+25 % (one exposure-chart step either way), 25 % beyond it half.
 * - Dose: the dose-area product against a diagnostic reference level. Published national DRLs
 *   are third-quartile doses of real rooms (e.g. UK 2022: PA chest 100 mGy·cm², AP pelvis
 *   2200, AP abdomen 2500); the stand-in's dose model lands in their order (physics.ts) but not
 *   on them, so each demo DRL is the model's dose of the standard technique plus 30 % — what a
 *   department's local DRL does for its own equipment. Up to 150 % of it earns half.
 * - Exposure index: deviation index within ±1.5 (IEC 62494-1's usual acceptance band) full,
 *   ±3 (half or twice the target exposure) half.
 * - Centring within 10 mm full, 20 mm half; collimation at most 1.3 × the region full, 1.8 half.
 * - Repeats: none full, one half.
 * Pass mark 60 %.
 */
export const DRL_ABOVE_STANDARD = 1.3;

export function demoMarkingScheme(area: BodyArea): MarkingScheme {
  const { kV, mAs } = area.defaults;
  const standardDap = doseAreaProduct(area.defaults, area.fieldCm);
  return {
    passMark: 60,
    criteria: {
      centring: { weight: 20, fullWithinMm: 10, partialWithinMm: 20 },
      collimation: { weight: 15, fullAtMostRatio: 1.3, partialAtMostRatio: 1.8 },
      kV: { weight: 10, min: kV - 5, max: kV + 5, partialTolerance: 5 },
      mAs: {
        weight: 10,
        min: round(mAs * 0.8),
        max: round(mAs * 1.25),
        partialTolerancePercent: 25,
      },
      dose: {
        weight: 20,
        drlDapMGyCm2: round(standardDap * DRL_ABOVE_STANDARD),
        partialAtMostPercent: 150,
      },
      exposureIndex: { weight: 15, fullWithin: 1.5, partialWithin: 3 },
      repeats: { weight: 10, fullAtMost: 0, partialAtMost: 1 },
    },
  };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The demo scheme of a radiography leaf (`radiography.lower-limb.knee`); null for others. */
export function demoMarkingSchemeOf(code: string, leaf: string): MarkingScheme | null {
  if (code !== 'radiography') return null;
  const area = (BODY_AREAS as Record<string, BodyArea>)[leaf];
  return area ? demoMarkingScheme(area) : null;
}
