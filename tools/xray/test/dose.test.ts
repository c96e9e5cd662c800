import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BODY_AREAS } from '../src/body-areas';
import { LESSONS, lessonFor, lessonPartDoses } from '../src/lesson-doses';
import { deviationIndex, doseAreaProduct, entranceSurfaceDoseUGy, rateExposure } from '../src/physics';

test('DAP follows the documented formula', () => {
  // 0.05 · (65/80)² · 5 · (100/110)² · 18 · 24
  const expected = 0.05 * (65 / 80) ** 2 * 5 * (100 / 110) ** 2 * 18 * 24;
  assert.ok(Math.abs(doseAreaProduct({ kV: 65, mAs: 5, sidCm: 110 }, [18, 24]) / expected - 1) < 1e-12);
  assert.ok(Math.abs(expected - 58.92) < 0.01);
});

test('DAP grows with mAs and kV and falls with SID', () => {
  const base = { kV: 70, mAs: 10, sidCm: 100 };
  const field = [20, 20] as const;
  const dap = doseAreaProduct(base, field);
  assert.ok(Math.abs(doseAreaProduct({ ...base, mAs: 20 }, field) / dap - 2) < 1e-9);
  assert.ok(doseAreaProduct({ ...base, kV: 90 }, field) > dap);
  assert.ok(doseAreaProduct({ ...base, sidCm: 150 }, field) < dap);
  assert.ok(entranceSurfaceDoseUGy(base, 15) > entranceSurfaceDoseUGy(base, 5));
});

test('default techniques give plausible doses: extremities low, torso high', () => {
  const dap = (key: keyof typeof BODY_AREAS) => doseAreaProduct(BODY_AREAS[key].defaults, BODY_AREAS[key].fieldCm);
  for (const key of ['hand', 'wrist', 'foot', 'ankle', 'elbow', 'knee'] as const) {
    assert.ok(dap(key) > 5 && dap(key) < 100, `${key}: ${dap(key)}`);
  }
  for (const key of ['chest', 'abdomen', 'pelvis'] as const) assert.ok(dap(key) >= 80, `${key}: ${dap(key)}`);
  assert.ok(dap('pelvis') > dap('chest'));
});

test('the deviation index is 0 on target and ±3 per doubling or halving', () => {
  const { defaults, softRefCm } = BODY_AREAS.knee;
  assert.equal(deviationIndex(defaults, defaults, softRefCm), 0);
  assert.ok(Math.abs(deviationIndex({ ...defaults, mAs: defaults.mAs * 2 }, defaults, softRefCm) - 3.01) < 0.01);
  assert.ok(Math.abs(deviationIndex({ ...defaults, mAs: defaults.mAs / 2 }, defaults, softRefCm) + 3.01) < 0.01);
  assert.equal(rateExposure(0), 'good');
  assert.equal(rateExposure(3), 'over');
  assert.equal(rateExposure(-3), 'under');
});

test('every lesson has two parts and the second gives lower doses everywhere', () => {
  for (const lesson of Object.values(LESSONS)) {
    assert.equal(lesson.parts.length, 2);
    const [worse, better] = lesson.parts.map((part) => lessonPartDoses(part, `${lesson.id}-seed`));
    assert.ok(worse && better);
    for (const region of ['eye', 'chest', 'hip'] as const) {
      assert.ok(better[region] < worse[region], `${lesson.id} ${region}: ${better[region]} vs ${worse[region]}`);
      assert.ok(better[region] > 0);
    }
    const rate = (doses: { chest: number }, seconds: number) => doses.chest / seconds;
    assert.ok(rate(better, lesson.parts[1].doseTimeS) < rate(worse, lesson.parts[0].doseTimeS));
  }
});

test('lesson doses are deterministic per seed', () => {
  const part = LESSONS.shielding!.parts[0];
  assert.deepEqual(lessonPartDoses(part, 'x'), lessonPartDoses(part, 'x'));
  assert.notDeepEqual(lessonPartDoses(part, 'x'), lessonPartDoses(part, 'y'));
});

test('only lesson leaves are lessons', () => {
  assert.equal(lessonFor('radiation-safety.lesson.distance-and-time')?.id, 'distance-and-time');
  assert.equal(lessonFor('radiation-safety.lesson.shielding')?.id, 'shielding');
  assert.equal(lessonFor('radiation-safety.heart.coronary-angiography'), null);
  assert.equal(lessonFor('radiography.lower-limb.knee'), null);
});
