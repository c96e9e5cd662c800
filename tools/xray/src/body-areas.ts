import type { TubeSettings } from '@portal/contract';
import * as anatomy from './anatomy';
import type { Point } from './shapes';

export interface BodyArea {
  key: string;
  /** Lower-case English name for summaries ("3 images of the knee"). */
  label: string;
  projection: 'AP' | 'PA';
  /** Whether a side marker applies (limbs); midline areas are still marked, as in practice. */
  paired: boolean;
  /** Square field of view of the image, cm, centred on `center` of the anatomy. */
  viewCm: number;
  center: Point;
  /** Collimated field at the image receptor, cm (width, height). */
  fieldCm: readonly [number, number];
  /** Water-equivalent thickness the detector exposure is judged behind (deviation index). */
  softRefCm: number;
  /** Patient thickness along the beam, for the skin distance of the entrance dose. */
  thicknessCm: number;
  /** A standard technique that exposes this area on target. */
  defaults: TubeSettings;
  build: anatomy.AnatomyBuilder;
}

const area = (a: BodyArea) => a;

/** Body areas the simulator can image, keyed by the leaf slug of the catalogue (docs/catalogue.md). */
export const BODY_AREAS = {
  foot: area({ key: 'foot', label: 'foot', projection: 'AP', paired: true, viewCm: 28, center: [0, 0], fieldCm: [18, 26], softRefCm: 4, thicknessCm: 6, defaults: { kV: 55, mAs: 3.2, sidCm: 100 }, build: anatomy.foot }),
  ankle: area({ key: 'ankle', label: 'ankle', projection: 'AP', paired: true, viewCm: 24, center: [0, 0], fieldCm: [15, 22], softRefCm: 7, thicknessCm: 8, defaults: { kV: 60, mAs: 4, sidCm: 100 }, build: anatomy.ankle }),
  knee: area({ key: 'knee', label: 'knee', projection: 'AP', paired: true, viewCm: 30, center: [0, 0], fieldCm: [18, 24], softRefCm: 10, thicknessCm: 12, defaults: { kV: 65, mAs: 5, sidCm: 110 }, build: anatomy.knee }),
  hip: area({ key: 'hip', label: 'hip', projection: 'AP', paired: true, viewCm: 30, center: [-10, 3], fieldCm: [24, 28], softRefCm: 17, thicknessCm: 20, defaults: { kV: 75, mAs: 20, sidCm: 110 }, build: anatomy.pelvis }),
  hand: area({ key: 'hand', label: 'hand', projection: 'PA', paired: true, viewCm: 26, center: [0, 1], fieldCm: [16, 24], softRefCm: 2.5, thicknessCm: 3, defaults: { kV: 55, mAs: 2, sidCm: 100 }, build: anatomy.hand }),
  wrist: area({ key: 'wrist', label: 'wrist', projection: 'PA', paired: true, viewCm: 16, center: [0, 7.5], fieldCm: [12, 14], softRefCm: 4, thicknessCm: 5, defaults: { kV: 55, mAs: 2.5, sidCm: 100 }, build: anatomy.hand }),
  elbow: area({ key: 'elbow', label: 'elbow', projection: 'AP', paired: true, viewCm: 24, center: [0, 0], fieldCm: [15, 22], softRefCm: 7, thicknessCm: 8, defaults: { kV: 60, mAs: 3.2, sidCm: 100 }, build: anatomy.elbow }),
  shoulder: area({ key: 'shoulder', label: 'shoulder', projection: 'AP', paired: true, viewCm: 30, center: [0, 1], fieldCm: [24, 24], softRefCm: 13, thicknessCm: 15, defaults: { kV: 70, mAs: 12, sidCm: 110 }, build: anatomy.shoulder }),
  skull: area({ key: 'skull', label: 'skull', projection: 'PA', paired: false, viewCm: 30, center: [0, 1], fieldCm: [22, 28], softRefCm: 15, thicknessCm: 19, defaults: { kV: 75, mAs: 16, sidCm: 110 }, build: anatomy.skull }),
  sinuses: area({ key: 'sinuses', label: 'sinuses', projection: 'PA', paired: false, viewCm: 20, center: [0, 2], fieldCm: [16, 18], softRefCm: 14, thicknessCm: 19, defaults: { kV: 75, mAs: 12, sidCm: 110 }, build: anatomy.skull }),
  'facial-bones': area({ key: 'facial-bones', label: 'facial bones', projection: 'PA', paired: false, viewCm: 24, center: [0, 3], fieldCm: [20, 22], softRefCm: 14, thicknessCm: 19, defaults: { kV: 75, mAs: 14, sidCm: 110 }, build: anatomy.skull }),
  chest: area({ key: 'chest', label: 'chest', projection: 'PA', paired: false, viewCm: 46, center: [0, -1], fieldCm: [36, 42], softRefCm: 12, thicknessCm: 22, defaults: { kV: 120, mAs: 2, sidCm: 180 }, build: anatomy.chest }),
  abdomen: area({ key: 'abdomen', label: 'abdomen', projection: 'AP', paired: false, viewCm: 46, center: [0, 0], fieldCm: [35, 43], softRefCm: 19, thicknessCm: 22, defaults: { kV: 80, mAs: 25, sidCm: 110 }, build: anatomy.abdomen }),
  pelvis: area({ key: 'pelvis', label: 'pelvis', projection: 'AP', paired: false, viewCm: 46, center: [0, 1], fieldCm: [43, 35], softRefCm: 18, thicknessCm: 20, defaults: { kV: 75, mAs: 25, sidCm: 110 }, build: anatomy.pelvis }),
} satisfies Record<string, BodyArea>;

export type BodyAreaKey = keyof typeof BODY_AREAS;

/**
 * Leaves that are not radiographs of a body part image what the procedure looks at: the
 * radiation-safety procedures are fluoroscopy of the head, heart or liver, and the birthing
 * positions the pelvis.
 */
const ALIASES: Readonly<Record<string, BodyAreaKey>> = {
  'cerebral-angiography': 'skull',
  'ct-head': 'skull',
  'coronary-angiography': 'chest',
  'pacemaker-implantation': 'chest',
  'liver-biopsy': 'abdomen',
  'tips-procedure': 'abdomen',
  head: 'skull',
  heart: 'chest',
  liver: 'abdomen',
  'lower-limb': 'knee',
  'upper-limb': 'elbow',
  torso: 'chest',
  birthing: 'pelvis',
};

function byName(name: string): BodyArea | null {
  const slug = name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  if (slug in BODY_AREAS) return BODY_AREAS[slug as BodyAreaKey];
  const alias = ALIASES[slug];
  return alias ? BODY_AREAS[alias] : null;
}

/**
 * The body area of a session: from its configuration (`<product>.<category>.<leaf>`, most
 * specific part first), else from the launched category's display name, else the chest.
 */
export function bodyAreaFor(configuration: string, categoryName: string | null): BodyArea {
  const parts = configuration.split('.').reverse();
  for (const part of parts) {
    const found = byName(part);
    if (found) return found;
  }
  return (categoryName ? byName(categoryName) : null) ?? BODY_AREAS.chest;
}
