import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { BODY_AREAS, bodyAreaFor } from '../src/body-areas';
import { renderRadiograph } from '../src/render';

const knee = BODY_AREAS.knee;
const render = (tube = knee.defaults, seed: string | number = 'seed-1', side: 'left' | 'right' = 'right') =>
  renderRadiograph({ area: knee, tube, side, seed });

test('a radiograph is a valid 512×512 grayscale PNG of a few tens of KB', () => {
  const { png, width, height } = render();
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const decoded = PNG.sync.read(png);
  assert.equal(decoded.width, 512);
  assert.equal(decoded.height, 512);
  assert.equal([width, height].join('x'), '512x512');
  assert.ok(png.length > 5_000 && png.length < 120_000, `PNG of ${png.length} bytes`);
  // Grayscale: every pixel has equal channels after decoding.
  for (let k = 0; k < decoded.data.length; k += 4 * 997) {
    assert.equal(decoded.data[k], decoded.data[k + 1]);
    assert.equal(decoded.data[k], decoded.data[k + 2]);
  }
});

test('the same seed gives the same image and another seed a different one', () => {
  assert.ok(render(knee.defaults, 'same').png.equals(render(knee.defaults, 'same').png));
  assert.ok(!render(knee.defaults, 'same').png.equals(render(knee.defaults, 'other').png));
});

test('more exposure darkens the image, less brightens it', () => {
  const normal = render().meanFieldValue;
  const over = render({ ...knee.defaults, mAs: knee.defaults.mAs * 4 }).meanFieldValue;
  const under = render({ ...knee.defaults, mAs: knee.defaults.mAs / 4 }).meanFieldValue;
  const higherKv = render({ ...knee.defaults, kV: knee.defaults.kV + 15 }).meanFieldValue;
  const fartherAway = render({ ...knee.defaults, sidCm: 180 }).meanFieldValue;
  assert.ok(over < normal - 10, `over ${over} vs ${normal}`);
  assert.ok(under > normal + 10, `under ${under} vs ${normal}`);
  assert.ok(higherKv < normal, `higher kV ${higherKv} vs ${normal}`);
  assert.ok(fartherAway > normal, `longer SID ${fartherAway} vs ${normal}`);
});

test('an underexposed image is grainier than one on target', () => {
  const roughness = (png: Buffer) => {
    const { data, width } = PNG.sync.read(png);
    // High-pass (pixel minus the mean of its neighbours) over the thigh's soft tissue beside the
    // femur: the smooth anatomy cancels out, the quantum noise stays.
    let sum = 0;
    let n = 0;
    for (let y = 60; y < 160; y++) {
      for (let x = 165; x < 205; x++) {
        const at = (column: number) => data[(y * width + column) * 4] ?? 0;
        sum += Math.abs(at(x) - (at(x - 1) + at(x + 1)) / 2);
        n++;
      }
    }
    return sum / n;
  };
  const onTarget = roughness(render().png);
  const starved = roughness(render({ ...knee.defaults, mAs: knee.defaults.mAs / 4 }).png);
  assert.ok(starved > onTarget * 1.4, `roughness ${starved} vs ${onTarget}`);
});

test('the side marker follows the side', () => {
  const right = PNG.sync.read(render(knee.defaults, 's', 'right').png);
  const left = PNG.sync.read(render(knee.defaults, 's', 'left').png);
  assert.ok(!right.data.equals(left.data));
});

test('every body area renders quickly', () => {
  for (const area of Object.values(BODY_AREAS)) {
    const started = performance.now();
    const { png, meanFieldValue } = renderRadiograph({ area, tube: area.defaults, side: 'left', seed: area.key });
    const elapsed = performance.now() - started;
    assert.ok(png.length < 150_000, `${area.key}: ${png.length} bytes`);
    // On target, the field is neither blank nor burnt out.
    assert.ok(meanFieldValue > 40 && meanFieldValue < 200, `${area.key}: mean ${meanFieldValue}`);
    // Generous: shared CI machines are slow; typically 30–80 ms.
    assert.ok(elapsed < 1500, `${area.key}: ${elapsed} ms`);
  }
});

test('configurations and category names map to body areas', () => {
  // That every leaf of the seeded catalogue maps to one is checked beside the catalogue, in the API.
  assert.equal(bodyAreaFor('radiography.lower-limb.knee', 'Knee').key, 'knee');
  assert.equal(bodyAreaFor('radiography.skull.facial-bones', null).key, 'facial-bones');
  assert.equal(bodyAreaFor('radiation-safety.heart.coronary-angiography', null).key, 'chest');
  assert.equal(bodyAreaFor('birthing.kneeling', 'Kneeling').key, 'pelvis');
  assert.equal(bodyAreaFor('something.unknown', 'Wrist').key, 'wrist');
});
