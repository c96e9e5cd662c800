/**
 * How the simulator's readouts read (issue #12): the evidence data is free-form key/value pairs,
 * so the report names the ones our simulators send with translated labels, units and values. A key
 * we do not know yet (a newer simulator) is still shown, with its name split into words.
 */
export interface ReadoutSpec {
  /** Translation key of the label. */
  label: string;
  /** Translation key of the unit after a number. */
  unit?: string;
  /** Translation key prefix of an enumerated value: `${values}.${value}`, the value itself as fallback. */
  values?: string;
}

const L = (name: string, extra: Omit<ReadoutSpec, 'label'> = {}): ReadoutSpec => ({
  label: `readouts.${name}`,
  ...extra,
});

export const READOUTS: Readonly<Record<string, ReadoutSpec>> = {
  // Scene settings of an X-ray image.
  configuration: L('configuration'),
  bodyArea: L('bodyArea', { values: 'readouts.bodyAreas' }),
  projection: L('projection'),
  side: L('side', { values: 'readouts.sides' }),
  fieldWidthCm: L('fieldWidth', { unit: 'units.cm' }),
  fieldHeightCm: L('fieldHeight', { unit: 'units.cm' }),
  imageNumber: L('imageNumber'),
  // Scene settings of a radiation-safety lesson part.
  lesson: L('lesson', { values: 'readouts.lessons' }),
  part: L('part'),
  operatorDistanceM: L('operatorDistance', { unit: 'units.m' }),
  leadApron: L('leadApron'),
  ceilingScreen: L('ceilingScreen'),
  tableSkirt: L('tableSkirt'),
  // Console readouts.
  kV: L('kV', { unit: 'units.kv' }),
  mAs: L('mAs', { unit: 'units.mas' }),
  mA: L('mA', { unit: 'units.ma' }),
  sidCm: L('sid', { unit: 'units.cm' }),
  deviationIndex: L('deviationIndex'),
  exposure: L('exposure', { values: 'readouts.exposures' }),
  meanPixelValue: L('meanPixelValue'),
  fluoroscopyTimeS: L('fluoroscopyTime', { unit: 'units.seconds' }),
};

/** "meanPixelValue" → "Mean pixel value": the label of a key no translation knows. */
export function wordsOf(key: string): string {
  const words = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
