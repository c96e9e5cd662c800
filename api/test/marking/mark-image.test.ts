import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvidenceData, ImageQuality, MarkingScheme } from '@portal/contract';
import { imageScore, markImage } from '../../src/marking/mark-image';
import { finalSessionScore, sessionScore } from '../../src/marking/session-score';

/** Knee AP, as the demo scheme marks it (api/src/demo/marking-schemes.ts has the same shape). */
const scheme: MarkingScheme = {
  passMark: 60,
  criteria: {
    centring: { weight: 20, fullWithinMm: 10, partialWithinMm: 20 },
    collimation: { weight: 15, fullAtMostRatio: 1.3, partialAtMostRatio: 1.8 },
    kV: { weight: 10, min: 60, max: 70, partialTolerance: 5 },
    mAs: { weight: 10, min: 4, max: 6, partialTolerancePercent: 25 },
    dose: { weight: 20, drlDapMGyCm2: 30, partialAtMostPercent: 150 },
    exposureIndex: { weight: 15, fullWithin: 1.5, partialWithin: 3 },
    repeats: { weight: 10, fullAtMost: 0, partialAtMost: 1 },
  },
};

function evidence(
  over: { kV?: number; mAs?: number; dap?: number; quality?: ImageQuality | null } = {},
): EvidenceData {
  const quality =
    over.quality === null
      ? {}
      : { quality: over.quality ?? { centringErrorMm: 4, collimationRatio: 1.1, deviationIndex: 0.3 } };
  return {
    meta: { type: 'xray_image' },
    settings: { bodyArea: 'knee', projection: 'AP' },
    console: {},
    tube: { kV: over.kV ?? 65, mAs: over.mAs ?? 5, sidCm: 110 },
    dose: { dapMGyCm2: over.dap ?? 20 },
    ...quality,
  };
}

const only = (criteria: MarkingScheme['criteria']): MarkingScheme => ({ passMark: 50, criteria });
const markOf = (s: MarkingScheme, data: EvidenceData, earlierAttempts = 0) =>
  markImage(s, { evidenceData: data, earlierAttempts }).criteria[0]!;

describe('markImage: every criterion at and beside its limits', () => {
  test('a good image earns every mark', () => {
    const marks = markImage(scheme, { evidenceData: evidence(), earlierAttempts: 0 });
    assert.equal(marks.score, 100);
    assert.deepEqual(
      marks.criteria.map((c) => [c.criterion, c.mark, c.reason]),
      [
        ['centring', 20, 'met'],
        ['collimation', 15, 'met'],
        ['kV', 10, 'met'],
        ['mAs', 10, 'met'],
        ['dose', 20, 'met'],
        ['exposureIndex', 15, 'met'],
        ['repeats', 10, 'met'],
      ],
    );
  });

  test('centring: at 10 mm full, just over half, at 20 mm half, beyond none', () => {
    const s = only({ centring: scheme.criteria.centring });
    const at = (mm: number) => markOf(s, evidence({ quality: { centringErrorMm: mm } }));
    assert.deepEqual(at(10), { criterion: 'centring', mark: 20, max: 20, reason: 'met', value: 10, limit: 10 });
    assert.deepEqual(at(10.1), { criterion: 'centring', mark: 10, max: 20, reason: 'off_centre', value: 10.1, limit: 10 });
    assert.equal(at(20).mark, 10);
    assert.deepEqual(at(20.1), { criterion: 'centring', mark: 0, max: 20, reason: 'off_centre', value: 20.1, limit: 20 });
  });

  test('collimation: a wide field loses marks in steps; anatomy cut off earns nothing', () => {
    const s = only({ collimation: scheme.criteria.collimation });
    const at = (ratio: number) => markOf(s, evidence({ quality: { collimationRatio: ratio } }));
    assert.equal(at(1).mark, 15);
    assert.equal(at(1.3).mark, 15);
    assert.equal(at(1.31).mark, 7.5);
    assert.equal(at(1.8).mark, 7.5);
    assert.equal(at(1.81).mark, 0);
    assert.equal(at(1.81).reason, 'collimation_wide');
    assert.deepEqual(at(0.9), {
      criterion: 'collimation', mark: 0, max: 15, reason: 'collimation_cut_off', value: 0.9, limit: 1,
    });
  });

  test('kV: the range edges are within; the tolerance beyond them earns half, each side named', () => {
    const s = only({ kV: scheme.criteria.kV });
    const at = (kV: number) => markOf(s, evidence({ kV }));
    assert.equal(at(60).mark, 10);
    assert.equal(at(70).mark, 10);
    assert.deepEqual(at(75), { criterion: 'kV', mark: 5, max: 10, reason: 'kv_high', value: 75, limit: 70 });
    assert.deepEqual(at(75.5), { criterion: 'kV', mark: 0, max: 10, reason: 'kv_high', value: 75.5, limit: 75 });
    assert.deepEqual(at(55), { criterion: 'kV', mark: 5, max: 10, reason: 'kv_low', value: 55, limit: 60 });
    assert.deepEqual(at(54), { criterion: 'kV', mark: 0, max: 10, reason: 'kv_low', value: 54, limit: 55 });
  });

  test('mAs: the tolerance is a share of the edge passed', () => {
    const s = only({ mAs: scheme.criteria.mAs });
    const at = (mAs: number) => markOf(s, evidence({ mAs }));
    assert.equal(at(4).mark, 10);
    assert.equal(at(6).mark, 10);
    // 25 % above 6 is 7.5; 25 % below 4 is 3.
    assert.deepEqual(at(7.5), { criterion: 'mAs', mark: 5, max: 10, reason: 'mas_high', value: 7.5, limit: 6 });
    assert.deepEqual(at(7.6), { criterion: 'mAs', mark: 0, max: 10, reason: 'mas_high', value: 7.6, limit: 7.5 });
    assert.equal(at(3).mark, 5);
    assert.deepEqual(at(2.9), { criterion: 'mAs', mark: 0, max: 10, reason: 'mas_low', value: 2.9, limit: 3 });
  });

  test('dose: at the DRL full marks, up to 150 % of it half, above none', () => {
    const s = only({ dose: scheme.criteria.dose });
    const at = (dap: number) => markOf(s, evidence({ dap }));
    assert.equal(at(30).mark, 20);
    assert.deepEqual(at(30.01), { criterion: 'dose', mark: 10, max: 20, reason: 'dose_above_drl', value: 30.01, limit: 30 });
    assert.equal(at(45).mark, 10);
    assert.deepEqual(at(45.01), { criterion: 'dose', mark: 0, max: 20, reason: 'dose_above_drl', value: 45.01, limit: 45 });
  });

  test('exposure index: both directions, the limit shown with the fault\'s sign', () => {
    const s = only({ exposureIndex: scheme.criteria.exposureIndex });
    const at = (di: number) => markOf(s, evidence({ quality: { deviationIndex: di } }));
    assert.equal(at(1.5).mark, 15);
    assert.equal(at(-1.5).mark, 15);
    assert.deepEqual(at(2), { criterion: 'exposureIndex', mark: 7.5, max: 15, reason: 'overexposed', value: 2, limit: 1.5 });
    assert.deepEqual(at(-3), { criterion: 'exposureIndex', mark: 7.5, max: 15, reason: 'underexposed', value: -3, limit: -1.5 });
    assert.deepEqual(at(-3.1), { criterion: 'exposureIndex', mark: 0, max: 15, reason: 'underexposed', value: -3.1, limit: -3 });
  });

  test('repeats: the first attempt full, one repeat half, a second none', () => {
    const s = only({ repeats: scheme.criteria.repeats });
    assert.equal(markOf(s, evidence(), 0).mark, 10);
    assert.deepEqual(markOf(s, evidence(), 1), { criterion: 'repeats', mark: 5, max: 10, reason: 'repeated', value: 1, limit: 0 });
    assert.deepEqual(markOf(s, evidence(), 2), { criterion: 'repeats', mark: 0, max: 10, reason: 'repeated', value: 2, limit: 1 });
  });

  test('evidence without the measured values: those criteria not assessed and left out of the score', () => {
    const marks = markImage(scheme, { evidenceData: evidence({ quality: null, dap: 60 }), earlierAttempts: 0 });
    const notAssessed = marks.criteria.filter((c) => c.reason === 'not_assessed').map((c) => c.criterion);
    assert.deepEqual(notAssessed, ['centring', 'collimation', 'exposureIndex']);
    for (const c of marks.criteria.filter((m) => m.reason === 'not_assessed')) assert.equal(c.mark, null);
    // kV 10 + mAs 10 + dose 0 (60 > 45) + repeats 10 of 50 assessed marks.
    assert.equal(marks.score, 60);
  });

  test('a scheme with no criteria, or only unassessed ones, gives no score', () => {
    assert.equal(markImage(only({}), { evidenceData: evidence(), earlierAttempts: 0 }).score, null);
    assert.equal(imageScore([{ criterion: 'centring', mark: null, max: 20, reason: 'not_assessed', value: null, limit: null }]), null);
  });
});

describe('sessionScore', () => {
  test('the best image per projection counts; projections are averaged and rounded', () => {
    assert.equal(
      sessionScore([
        { projection: 'Knee AP (left)', score: 55 },
        { projection: 'Knee AP (left)', score: 80 },
        { projection: 'Knee lateral (left)', score: 65.5 },
        { projection: 'Knee lateral (left)', score: null },
      ]),
      73,
    );
  });

  test('no scored image: no score', () => {
    assert.equal(sessionScore([]), null);
    assert.equal(sessionScore([{ projection: 'Knee AP', score: null }]), null);
  });

  test('finalSessionScore: none while any image waits for marking, else the session score', () => {
    const marked = { projection: 'Knee AP (left)', score: 90, pending: false };
    assert.equal(finalSessionScore([marked]), 90);
    assert.equal(
      finalSessionScore([marked, { projection: 'Knee lateral (left)', score: null, pending: true }]),
      null,
    );
    assert.equal(finalSessionScore([marked, { projection: 'Knee AP (left)', score: null, pending: false }]), 90);
    assert.equal(finalSessionScore([]), null);
  });
});
