import type { Random } from './random';
import { bone, hollow, soft, type Capsule, type Ellipsoid, type Point, type Shape } from './shapes';

/**
 * Anatomy as a radiograph shows it, in cm, y pointing down, for the patient's RIGHT side seen
 * from the front (AP/PA: the patient's right, and so the lateral side of a right limb, is on the
 * viewer's left, at negative x). Left-sided images are mirrored by the renderer. Proportions are
 * rounded adult averages; `random` varies them slightly between patients.
 */
export type AnatomyBuilder = (random: Random) => Shape[];

const rod = (a: Point, b: Point, radius: number, density = 1, depth?: number): Capsule => ({ kind: 'capsule', a, b, radius, depth, ...bone(density) });
const blob = (center: Point, rx: number, ry: number, depth: number, density = 1, angle = 0): Ellipsoid => ({ kind: 'ellipsoid', center, rx, ry, depth, angle, ...bone(density) });
const tissue = (center: Point, rx: number, ry: number, depth: number, density = 1, angle = 0): Ellipsoid => ({ kind: 'ellipsoid', center, rx, ry, depth, angle, ...soft(density) });
const limb = (a: Point, b: Point, radius: number, depth?: number): Capsule => ({ kind: 'capsule', a, b, radius, depth, ...soft() });

/** A long bone's shaft: a cortical tube around the marrow cavity. */
const shaft = (a: Point, b: Point, radius: number): Shape[] => hollow(rod(a, b, radius), 0.3, 0.1);
/** An epiphysis or small bone: spongy inside a thin cortical rim. */
const spongy = (center: Point, rx: number, ry: number, depth: number, angle = 0): Shape[] => hollow(blob(center, rx, ry, depth, 0.6, angle), 0.12, 0.2);

function lerp(a: Point, b: Point, t: number): Point {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

export const knee: AnatomyBuilder = (random) => {
  const gap = random.between(0.45, 0.65);
  return [
    limb([0, -20], [0, 20], 6.4),
    ...shaft([0.4, -18], [0, -4.5], 1.55),
    ...spongy([0, -3.2], 3.7, 1.9, 2.6),
    ...spongy([-2, -1.3], 2.2, 1.6, 2.5),
    ...spongy([2, -1.3], 2.1, 1.6, 2.5),
    { kind: 'ellipsoid', center: [0, -1.2], rx: 0.8, ry: 1.1, depth: 2, angle: 0, ...bone(-0.5) },
    ...spongy([0.3, -2.6], 1.6, 2.1, 1.1),
    ...spongy([0, 1.4 + gap], 3.9, 1.2, 2.6),
    blob([-0.5, 0.4 + gap], 0.35, 0.6, 0.8, 0.8),
    blob([0.5, 0.4 + gap], 0.35, 0.6, 0.8, 0.8),
    ...shaft([0, 2.6 + gap], [0.3, 18], 1.6),
    ...spongy([-3.5, 3.1 + gap], 0.95, 1.0, 1.0),
    ...shaft([-3.6, 3.8 + gap], [-3.1, 18], 0.6),
  ];
};

export const ankle: AnatomyBuilder = (random) => {
  const tilt = random.between(-0.05, 0.05);
  return [
    limb([0, -18], [0, 4.5], 4.6),
    ...shaft([0, -16], [0, -2.2], 1.75),
    ...spongy([0, -1.1], 2.5, 1.3, 2.2),
    ...spongy([2.3, 0.4], 0.75, 1.3, 1.1),
    ...shaft([-3.0, -16], [-3.0, -1.2], 0.65),
    ...spongy([-2.9, 0.8], 0.85, 1.7, 1.0),
    ...spongy([0.1, 1.9], 2.3, 1.2, 2.3, tilt),
    ...spongy([0.3, 4.6], 2.4, 1.9, 2.0),
    ...spongy([1.8, 3.4], 1.0, 0.8, 1.2),
  ];
};

/** Hand PA, fingers up: radius and ulna, two carpal rows, metacarpals and phalanges. */
export const hand: AnatomyBuilder = (random) => {
  const spread = random.between(0.9, 1.1);
  const shapes: Shape[] = [
    limb([-0.2, 14], [-0.2, 7], 3.4, 2.2),
    tissue([0, 3], 4.3, 4.8, 1.6),
  ];
  // Finger rays from thumb (viewer's left for a right hand) to little finger.
  const rays: Array<{ base: Point; dir: Point; lengths: number[]; radius: number }> = [
    { base: [-2.6, 5.4], dir: [-0.62, -0.78], lengths: [3.8, 3.0, 2.4], radius: 0.5 },
    { base: [-1.3, 5.2], dir: [-0.12 * spread, -1], lengths: [6.3, 3.8, 2.4, 1.8], radius: 0.42 },
    { base: [0.0, 5.1], dir: [0, -1], lengths: [6.0, 4.2, 2.7, 1.9], radius: 0.42 },
    { base: [1.2, 5.2], dir: [0.1 * spread, -1], lengths: [5.5, 3.9, 2.5, 1.8], radius: 0.38 },
    { base: [2.3, 5.5], dir: [0.24 * spread, -1], lengths: [5.0, 3.1, 1.9, 1.6], radius: 0.34 },
  ];
  for (const ray of rays) {
    const norm = Math.hypot(ray.dir[0], ray.dir[1]);
    const dir: Point = [ray.dir[0] / norm, ray.dir[1] / norm];
    let start = ray.base;
    const total = ray.lengths.reduce((sum, l) => sum + l + 0.25, 0);
    shapes.push(limb(lerp(start, [start[0] + dir[0] * total, start[1] + dir[1] * total], 0.35), [start[0] + dir[0] * total, start[1] + dir[1] * total], ray.radius * 2, 0.9));
    ray.lengths.forEach((length, index) => {
      const end: Point = [start[0] + dir[0] * length, start[1] + dir[1] * length];
      const radius = ray.radius * (index === 0 ? 1 : 0.85 - index * 0.08);
      shapes.push(...hollow(rod([start[0] + dir[0] * 0.25, start[1] + dir[1] * 0.25], [end[0] - dir[0] * 0.25, end[1] - dir[1] * 0.25], radius), 0.4, 0.2));
      shapes.push(...spongy(end, radius * 1.35, 0.32, radius * 1.1, Math.atan2(dir[1], dir[0]) + Math.PI / 2));
      start = [end[0] + dir[0] * 0.25, end[1] + dir[1] * 0.25];
    });
  }
  const carpals: Array<[Point, number, number]> = [
    [[-2.1, 7.4], 0.9, 0.6], [[-0.7, 7.6], 0.75, 0.65], [[0.6, 7.5], 0.6, 0.6], [[1.6, 7.2], 0.45, 0.45],
    [[-2.3, 6.1], 0.7, 0.6], [[-1.1, 6.1], 0.6, 0.55], [[0.1, 6.2], 0.75, 0.8], [[1.5, 6.1], 0.7, 0.75],
  ];
  for (const [center, rx, ry] of carpals) shapes.push(...spongy(center, rx, ry, 0.9));
  shapes.push(...shaft([-1.3, 14], [-1.2, 9.6], 1.1), ...spongy([-1.2, 8.8], 1.7, 0.75, 1.2, -0.1));
  shapes.push(...shaft([1.6, 14], [1.5, 9.4], 0.7), ...spongy([1.5, 8.9], 0.8, 0.6, 0.8));
  return shapes;
};

/** Foot AP (dorsoplantar), toes up: tarsals, metatarsals and phalanges. */
export const foot: AnatomyBuilder = (random) => {
  const spread = random.between(0.9, 1.1);
  const shapes: Shape[] = [tissue([0, 1], 5, 11.5, 2.8)];
  const rays: Array<{ base: Point; dir: Point; lengths: number[]; radius: number }> = [
    { base: [1.8, 3.2], dir: [0.08, -1], lengths: [6.2, 3.0, 2.4], radius: 0.85 },
    { base: [0.6, 3.4], dir: [-0.05 * spread, -1], lengths: [7.3, 2.6, 1.3, 1.1], radius: 0.55 },
    { base: [-0.6, 3.6], dir: [-0.14 * spread, -1], lengths: [6.9, 2.3, 1.2, 1.0], radius: 0.5 },
    { base: [-1.7, 3.9], dir: [-0.22 * spread, -1], lengths: [6.6, 2.1, 1.1, 1.0], radius: 0.48 },
    { base: [-2.8, 4.3], dir: [-0.3 * spread, -1], lengths: [6.1, 1.8, 1.0, 0.9], radius: 0.48 },
  ];
  for (const ray of rays) {
    const norm = Math.hypot(ray.dir[0], ray.dir[1]);
    const dir: Point = [ray.dir[0] / norm, ray.dir[1] / norm];
    let start = ray.base;
    ray.lengths.forEach((length, index) => {
      const end: Point = [start[0] + dir[0] * length, start[1] + dir[1] * length];
      const radius = ray.radius * (index === 0 ? 1 : 0.9 - index * 0.1);
      shapes.push(limb(start, end, radius * 2.2, 1.2));
      shapes.push(...hollow(rod([start[0] + dir[0] * 0.25, start[1] + dir[1] * 0.25], [end[0] - dir[0] * 0.25, end[1] - dir[1] * 0.25], radius), 0.4, 0.2));
      shapes.push(...spongy(end, radius * 1.3, 0.35, radius * 1.1, Math.atan2(dir[1], dir[0]) + Math.PI / 2));
      start = [end[0] + dir[0] * 0.3, end[1] + dir[1] * 0.3];
    });
  }
  const tarsals: Array<[Point, number, number]> = [
    [[1.6, 4.6], 0.9, 1.0], [[0.4, 4.8], 0.6, 0.9], [[-0.7, 5.0], 0.55, 0.8], [[-2.2, 5.6], 1.2, 1.2],
    [[0.8, 6.7], 2.0, 1.0], [[-0.6, 8.6], 2.4, 1.7], [[-0.2, 11], 2.2, 1.9],
  ];
  for (const [center, rx, ry] of tarsals) shapes.push(...spongy(center, rx, ry, 1.6));
  return shapes;
};

export const elbow: AnatomyBuilder = () => [
  limb([0, -16], [0, 16], 4.6),
  ...shaft([0, -16], [0, -3.6], 1.45),
  ...spongy([0, -2.2], 3.3, 1.5, 2.0),
  ...spongy([3.2, -2.6], 0.8, 0.75, 0.9),
  ...spongy([-3.0, -2.4], 0.6, 0.6, 0.8),
  { kind: 'ellipsoid', center: [0.1, -2.3], rx: 1.0, ry: 0.8, depth: 1.5, angle: 0, ...bone(-0.45) },
  ...spongy([-1.9, 0.85], 1.1, 0.55, 1.1),
  ...shaft([-1.9, 1.5], [-2.4, 16], 0.8),
  ...spongy([0.8, 0.7], 1.5, 1.0, 1.6),
  ...shaft([0.8, 1.6], [1.3, 16], 0.85),
];

export const shoulder: AnatomyBuilder = (random) => {
  const shapes: Shape[] = [
    tissue([3, 3], 15, 17, 9),
    tissue([8, 7], 7, 10, 5, -0.7),
    limb([-6, 2], [-7.5, 18], 5.5),
    ...spongy([-4, -1], 2.6, 2.8, 2.6),
    ...spongy([-6.1, -1.5], 1.0, 1.3, 1.4),
    ...shaft([-5.3, 1.2], [-6.6, 18], 1.5),
    ...spongy([-1.2, -0.8], 0.7, 1.9, 1.6),
    blob([2.8, 4.5], 3.8, 7.5, 0.45, 0.6, 0.15),
    rod([-1.0, 0.8], [1.5, 11], 0.55, 0.9),
    ...hollow(rod([-2.4, -4.5], [2.2, -5.4], 0.85), 0.35, 0.3),
    ...hollow(rod([-1.2, -5.3], [13, -6.8], 0.85), 0.4, 0.2),
    rod([0.3, -2.8], [-1.4, -2.2], 0.5, 0.9),
  ];
  for (let i = 0; i < 5; i++) {
    const y = -3 + i * 3 + random.between(-0.2, 0.2);
    shapes.push({ kind: 'arc', center: [12, y + 9], arcRadius: 10, from: -Math.PI * 0.62, to: -Math.PI * 0.95, radius: 0.5, ...bone(0.75) });
  }
  return shapes;
};

/** The lumbar or thoracic column: stacked vertebral bodies with pedicles and spinous processes. */
function spine(top: number, bottom: number, bodyWidth: number, bodyHeight: number, gap: number, depth: number): Shape[] {
  const shapes: Shape[] = [];
  for (let y = top; y + bodyHeight <= bottom; y += bodyHeight + gap) {
    const cy = y + bodyHeight / 2;
    shapes.push({ kind: 'slab', center: [0, cy], width: bodyWidth, height: bodyHeight, depth, corner: 0.35, ...bone(0.5) });
    shapes.push({ kind: 'slab', center: [0, cy], width: bodyWidth * 0.82, height: bodyHeight * 0.8, depth: depth * 0.8, corner: 0.3, ...bone(-0.2) });
    shapes.push(blob([-bodyWidth * 0.32, cy - bodyHeight * 0.15], bodyWidth * 0.1, bodyHeight * 0.17, 0.8, 0.9));
    shapes.push(blob([bodyWidth * 0.32, cy - bodyHeight * 0.15], bodyWidth * 0.1, bodyHeight * 0.17, 0.8, 0.9));
    shapes.push(blob([0, cy + bodyHeight * 0.25], bodyWidth * 0.08, bodyHeight * 0.25, 1.0, 0.7));
  }
  return shapes;
}

export const chest: AnatomyBuilder = (random) => {
  const heart = random.between(0.95, 1.08);
  const shapes: Shape[] = [
    tissue([0, 3], 17.5, 23, 10.5),
    limb([0, -22], [0, -14], 5.5),
    tissue([-7.5, -1], 6.6, 11.5, 6.5, -0.85),
    tissue([7.8, -1.5], 6.4, 11.2, 6.3, -0.85),
    tissue([2.3 * heart, 5.2], 6.4 * heart, 5.2, 5.2, 0.6, -0.35),
    tissue([0, 1], 2.2, 12, 4.5, 0.3),
    ...spine(-20, 22, 3.1, 2.0, 0.45, 2.3),
    ...hollow(rod([-1.6, -13.2], [-13.5, -15.2], 0.8), 0.4, 0.2),
    ...hollow(rod([1.6, -13.2], [13.5, -15.2], 0.8), 0.4, 0.2),
    blob([-14, -8], 2.2, 7, 0.45, 0.5, 0.2),
    blob([14, -8], 2.2, 7, 0.45, 0.5, -0.2),
  ];
  for (let i = 0; i < 10; i++) {
    const y = -15.5 + i * 2.35;
    const widen = Math.min(1, 0.55 + i * 0.1);
    for (const sign of [-1, 1]) {
      const wobble = random.between(-0.15, 0.15);
      // Posterior rib: from the spine out and down to the lateral chest wall.
      shapes.push({ kind: 'arc', center: [sign * 3.5, y + 8 + wobble], arcRadius: 9.5 * widen + 3, from: sign < 0 ? -Math.PI * 0.43 : -Math.PI * 0.57, to: sign < 0 ? -Math.PI * 0.97 : -Math.PI * 0.03, radius: 0.5, ...bone(0.75) });
      // Anterior rib: fainter, from the wall down and in towards the sternum.
      shapes.push({ kind: 'arc', center: [sign * 2, y - 3.5], arcRadius: 9 * widen + 3.5, from: sign < 0 ? Math.PI * 0.97 : Math.PI * 0.03, to: sign < 0 ? Math.PI * 0.7 : Math.PI * 0.3, radius: 0.45, ...bone(0.35) });
    }
  }
  return shapes;
};

export const abdomen: AnatomyBuilder = (random) => {
  const shapes: Shape[] = [
    tissue([0, 0], 16.5, 26, 11),
    tissue([-6, -12], 8, 6, 4, 0.25),
    ...spine(-17, 10.5, 4.2, 3.1, 0.9, 2.8),
    blob([-8.8, 14.5], 6.2, 6.3, 0.85, 0.6, -0.35),
    blob([8.8, 14.5], 6.2, 6.3, 0.85, 0.6, 0.35),
    { kind: 'arc', center: [-8.5, 16], arcRadius: 6.5, from: -Math.PI * 0.95, to: -Math.PI * 0.35, radius: 0.45, ...bone(0.9) },
    { kind: 'arc', center: [8.5, 16], arcRadius: 6.5, from: -Math.PI * 0.05, to: -Math.PI * 0.65, radius: 0.45, ...bone(0.9) },
    ...spongy([0, 15], 3.6, 4.6, 1.8),
  ];
  for (let i = 0; i < 3; i++) {
    for (const sign of [-1, 1]) {
      shapes.push({ kind: 'arc', center: [sign * 3, -26 + i * 2.4], arcRadius: 13, from: sign < 0 ? Math.PI * 0.55 : Math.PI * 0.45, to: sign < 0 ? Math.PI * 0.9 : Math.PI * 0.1, radius: 0.5, ...bone(0.6) });
    }
  }
  const gas = random.fork('bowel gas');
  for (let i = 0; i < 9; i++) {
    shapes.push(tissue([gas.between(-11, 11), gas.between(-6, 12)], gas.between(1, 2.6), gas.between(0.8, 2), gas.between(1, 2.2), -0.9, gas.between(0, Math.PI)));
  }
  return shapes;
};

/** AP pelvis with both hips; `hip` shows one of them closer. */
export const pelvis: AnatomyBuilder = (random) => {
  const shapes: Shape[] = [
    tissue([0, -2], 19, 22, 10),
    limb([-12.5, 17], [-13.5, 32], 7),
    limb([12.5, 17], [13.5, 32], 7),
    ...spine(-22, -10.5, 4.4, 3.1, 0.9, 2.8),
    ...spongy([0, -5.5], 4.0, 5.0, 2.0),
    tissue([0, 2], 5, 3.5, 3, -0.3),
  ];
  for (const sign of [-1, 1]) {
    const s = (x: number) => sign * x;
    shapes.push(
      blob([s(8.3), -6.8], 6.4, 6.0, 0.9, 0.65, sign * 0.35),
      { kind: 'arc', center: [s(8.3), -5], arcRadius: 6.8, from: sign < 0 ? -Math.PI * 0.95 : -Math.PI * 0.05, to: sign < 0 ? -Math.PI * 0.35 : -Math.PI * 0.65, radius: 0.5, ...bone(0.9) },
      ...hollow(blob([s(9.4), 1.6], 3.4, 2.6, 2.6, 0.8), 0.25, 0.4),
      ...spongy([s(9.6), 2.6 + random.between(-0.1, 0.1)], 2.35, 2.35, 2.4),
      ...hollow(rod([s(10.3), 3.6], [s(12.4), 6.2], 1.45), 0.3, 0.35),
      ...spongy([s(13.6), 5.2], 1.5, 1.9, 1.8),
      ...spongy([s(11.5), 8.4], 0.8, 0.6, 0.8),
      ...shaft([s(12.9), 6.4], [s(13.7), 24], 1.65),
      ...hollow(rod([s(7.6), 4.6], [s(1.3), 5.8], 0.95), 0.35, 0.3),
      ...hollow(rod([s(7.4), 5.4], [s(7.0), 9.6], 1.25), 0.3, 0.35),
      ...hollow(rod([s(7.0), 9.8], [s(1.4), 8.6], 0.85), 0.35, 0.3),
      ...spongy([s(1.2), 7.1], 0.8, 1.9, 1.5),
    );
  }
  return shapes;
};

export const skull: AnatomyBuilder = (random) => {
  const jaw = random.between(-0.2, 0.2);
  const shapes: Shape[] = [
    tissue([0, 0], 8.6, 11.2, 9.6),
    limb([0, 9], [0, 18], 5.2),
    blob([0, -0.5], 7.8, 9.8, 9.0),
    blob([0, -0.5], 7.25, 9.25, 8.45, -1),
    blob([0, -0.5], 7.5, 9.5, 8.7, -0.25),
    tissue([0, -4.6], 1.9, 1.0, 1.5, -0.7),
    tissue([0, 4.0], 1.1, 2.4, 3, -0.7),
    rod([0, 1.8], [0, 6.2], 0.12, 1.2, 1.5),
    tissue([-2.8, 4.6], 1.6, 1.9, 2.4, -0.75),
    tissue([2.8, 4.6], 1.6, 1.9, 2.4, -0.75),
    rod([-1.6, 1.6], [-6.6, 0.6], 0.75, 0.9),
    rod([1.6, 1.6], [6.6, 0.6], 0.75, 0.9),
    ...spine(9.5, 17, 2.6, 1.6, 0.5, 1.8),
  ];
  for (const sign of [-1, 1]) {
    shapes.push(
      { kind: 'ellipsoid', center: [sign * 3.3, 0.4], rx: 2.0, ry: 1.7, depth: 3, angle: 0, ...bone(-0.35) },
      { kind: 'arc', center: [sign * 3.3, 0.4], arcRadius: 2.0, from: 0, to: 2 * Math.PI - 0.01, radius: 0.3, ...bone(0.8) },
      rod([sign * 5.6, 7.3 + jaw], [sign * 6.1, 2.8], 0.75, 0.9),
    );
  }
  shapes.push({ kind: 'arc', center: [0, 5 + jaw], arcRadius: 6, from: Math.PI * 0.14, to: Math.PI * 0.86, radius: 0.75, depth: 1.1, ...bone(0.95) });
  for (let i = 0; i < 14; i++) {
    const a = Math.PI * (0.2 + (0.6 * i) / 13);
    shapes.push(blob([4.7 * Math.cos(a), 5.4 + jaw + 4.1 * Math.sin(a) * 0.55], 0.3, 0.55, 0.6, 1.4));
    shapes.push(blob([4.5 * Math.cos(a), 5.9 + 1.6 * Math.sin(a) * 0.35], 0.3, 0.5, 0.6, 1.4));
  }
  return shapes;
};
