import type { TubeSettings } from '@portal/contract';

/**
 * A deliberately simple exposure and dose model, good enough for a training stand-in and easy to
 * check by hand. Every number is a rounded textbook value for a tungsten tube with about 2.5 mm
 * aluminium total filtration; none of it is meant for clinical use.
 */

/** Tube output (air kerma per mAs at 100 cm) at 80 kV, mGy/mAs; typical values are 0.04–0.06. */
const OUTPUT_AT_80_KV = 0.05;
/** Backscatter factor from the patient at the skin, for the entrance surface dose. */
const BACKSCATTER_FACTOR = 1.35;

/** Output grows roughly with the square of the tube voltage. */
function tubeOutputMGyPerMAs(kV: number): number {
  return OUTPUT_AT_80_KV * (kV / 80) ** 2;
}

/** Air kerma in mGy at `distanceCm` from the focal spot, by the inverse-square law. */
export function airKermaMGy(tube: TubeSettings, distanceCm = tube.sidCm): number {
  return tubeOutputMGyPerMAs(tube.kV) * tube.mAs * (100 / distanceCm) ** 2;
}

/**
 * Dose-area product, mGy·cm²: air kerma at the image receptor times the collimated field there.
 * DAP does not change along the beam (kerma falls with 1/d², the field grows with d²), so the
 * receptor plane is as good as any; with the field fixed to the anatomy at the receptor, a longer
 * SID at the same mAs gives a lower DAP.
 *
 *   DAP = 0.05 · (kV/80)² · mAs · (100/SID)² · fieldWidth · fieldHeight
 *
 * This lands near published diagnostic reference levels: about 10–60 mGy·cm² for hands, feet and
 * knees, about 100 for a PA chest, over 1000 for an AP pelvis or abdomen.
 */
export function doseAreaProduct(tube: TubeSettings, fieldCm: readonly [number, number]): number {
  return airKermaMGy(tube) * fieldCm[0] * fieldCm[1];
}

/** Entrance surface dose, µGy: kerma at the skin (SID minus the part's thickness) with backscatter. */
export function entranceSurfaceDoseUGy(tube: TubeSettings, thicknessCm: number): number {
  const skinDistance = Math.max(tube.sidCm - thicknessCm, 10);
  return airKermaMGy(tube, skinDistance) * BACKSCATTER_FACTOR * 1000;
}

/**
 * Linear attenuation coefficients, 1/cm, at the beam's effective energy, taken as 0.6 × kV (the
 * beam as hardened by the patient): a Compton floor plus a photoelectric term falling with E³,
 * fitted to water and cortical bone between 20 and 80 keV within about 10 %.
 */
export function attenuation(kV: number): { soft: number; bone: number } {
  const energyKeV = 0.6 * kV;
  const e3 = energyKeV ** 3;
  return { soft: 0.18 + 5130 / e3, bone: 0.34 + 59670 / e3 };
}

/** Kerma reaching the detector behind `softCm` of tissue and `boneCm` of bone. */
export function detectorKermaMGy(tube: TubeSettings, softCm: number, boneCm = 0): number {
  const mu = attenuation(tube.kV);
  return airKermaMGy(tube) * Math.exp(-(mu.soft * softCm + mu.bone * boneCm));
}

/**
 * Deviation index (IEC 62494-1): 10·log10 of the detector exposure over its target. 0 is on
 * target; +3 is twice the exposure needed, −3 half of it. The target is what the body area's
 * default technique gives behind its reference thickness.
 */
export function deviationIndex(tube: TubeSettings, target: TubeSettings, softRefCm: number): number {
  return 10 * Math.log10(detectorKermaMGy(tube, softRefCm) / detectorKermaMGy(target, softRefCm));
}

export type ExposureRating = 'good' | 'under' | 'over';

/** The usual acceptance band of the deviation index is ±1.5 (about −30 % to +40 % exposure). */
export function rateExposure(deviation: number): ExposureRating {
  if (deviation < -1.5) return 'under';
  if (deviation > 1.5) return 'over';
  return 'good';
}

export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
