import type { Point, Shape } from './shapes';

/** Pixel grid over the anatomy, in cm: pixel (i, j) has its centre at left + (i + ½)·cmPerPixel. */
export interface Grid {
  width: number;
  height: number;
  left: number;
  top: number;
  cmPerPixel: number;
}

export interface ThicknessMaps {
  soft: Float32Array;
  bone: Float32Array;
}

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function boundsOf(shape: Shape): Box {
  const around = ([x, y]: Point, r: number): Box => ({ minX: x - r, minY: y - r, maxX: x + r, maxY: y + r });
  switch (shape.kind) {
    case 'capsule': {
      const a = around(shape.a, shape.radius);
      const b = around(shape.b, shape.radius);
      return { minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) };
    }
    case 'ellipsoid':
      return around(shape.center, Math.max(shape.rx, shape.ry));
    case 'arc': {
      // Sample the arc: its bounding box is usually a small part of the whole circle's.
      const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
      for (let n = 0; n <= 32; n++) {
        const a = shape.from + ((shape.to - shape.from) * n) / 32;
        const x = shape.center[0] + shape.arcRadius * Math.cos(a);
        const y = shape.center[1] + shape.arcRadius * Math.sin(a);
        box.minX = Math.min(box.minX, x);
        box.minY = Math.min(box.minY, y);
        box.maxX = Math.max(box.maxX, x);
        box.maxY = Math.max(box.maxY, y);
      }
      // The sag between samples is below 0.5 % of the radius for a half circle.
      const pad = shape.radius + shape.arcRadius * 0.01;
      return { minX: box.minX - pad, minY: box.minY - pad, maxX: box.maxX + pad, maxY: box.maxY + pad };
    }
    case 'slab':
      return around(shape.center, Math.hypot(shape.width, shape.height) / 2);
  }
}

/** Whether angle `a` lies on the arc travelling from `from` to `to` (either direction). */
function onArc(a: number, from: number, to: number): boolean {
  const full = 2 * Math.PI;
  const span = to - from;
  const offset = (((a - from) % full) + full) % full;
  if (span >= 0) return offset <= span;
  return offset === 0 || offset >= full + span;
}

type PathFunction = (x: number, y: number) => number;

/**
 * The ray length through `shape` at (x, y), cm, as a function with the shape's constants worked
 * out once: it runs for every pixel of the shape's bounding box.
 */
function pathFunction(shape: Shape): PathFunction {
  switch (shape.kind) {
    case 'capsule': {
      const [ax, ay] = shape.a;
      const dx = shape.b[0] - ax;
      const dy = shape.b[1] - ay;
      const len2 = dx * dx + dy * dy;
      const r2 = shape.radius * shape.radius;
      const scale = 2 * ((shape.depth ?? shape.radius) / shape.radius);
      return (x, y) => {
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
        const px = x - ax - t * dx;
        const py = y - ay - t * dy;
        const q = r2 - px * px - py * py;
        return q > 0 ? scale * Math.sqrt(q) : 0;
      };
    }
    case 'ellipsoid': {
      const angle = shape.angle ?? 0;
      const [cx, cy] = shape.center;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      const irx = 1 / shape.rx;
      const iry = 1 / shape.ry;
      const scale = 2 * shape.depth;
      return (x, y) => {
        const dx = x - cx;
        const dy = y - cy;
        const u = (dx * cos + dy * sin) * irx;
        const v = (dy * cos - dx * sin) * iry;
        const q = 1 - u * u - v * v;
        return q > 0 ? scale * Math.sqrt(q) : 0;
      };
    }
    case 'arc': {
      const [cx, cy] = shape.center;
      const { arcRadius, from, to, radius } = shape;
      const r2 = radius * radius;
      const scale = 2 * ((shape.depth ?? radius) / radius);
      const ends = [from, to].map((a) => [cx + arcRadius * Math.cos(a), cy + arcRadius * Math.sin(a)] as const);
      const rod = (d2: number) => (d2 < r2 ? scale * Math.sqrt(r2 - d2) : 0);
      return (x, y) => {
        const dx = x - cx;
        const dy = y - cy;
        const distance = Math.sqrt(dx * dx + dy * dy);
        const off = distance - arcRadius;
        if (off >= radius || off <= -radius) return 0;
        if (onArc(Math.atan2(dy, dx), from, to)) return rod(off * off);
        // Round ends, so a rib does not stop in a flat cut.
        let best = 0;
        for (const [ex, ey] of ends) best = Math.max(best, rod((x - ex) ** 2 + (y - ey) ** 2));
        return best;
      };
    }
    case 'slab': {
      const angle = shape.angle ?? 0;
      const [cx, cy] = shape.center;
      const cos = Math.cos(angle);
      const sin = Math.sin(angle);
      const { corner } = shape;
      const halfWidth = shape.width / 2 - corner;
      const halfHeight = shape.height / 2 - corner;
      const scale = 2 * shape.depth;
      const rimWidth = Math.max(corner, 1e-6);
      return (x, y) => {
        const dx = x - cx;
        const dy = y - cy;
        const u = Math.abs(dx * cos + dy * sin) - halfWidth;
        const v = Math.abs(dy * cos - dx * sin) - halfHeight;
        // Signed distance to a rounded rectangle; the slab thins over its rounded rim.
        const outside = Math.hypot(Math.max(u, 0), Math.max(v, 0)) + Math.min(Math.max(u, v), 0) - corner;
        if (outside >= 0) return 0;
        const rim = Math.min(1, -outside / rimWidth);
        return scale * Math.sqrt(rim * (2 - rim));
      };
    }
  }
}

export function rasterize(shapes: readonly Shape[], grid: Grid): ThicknessMaps {
  const size = grid.width * grid.height;
  const maps: ThicknessMaps = { soft: new Float32Array(size), bone: new Float32Array(size) };
  const step = grid.cmPerPixel;
  for (const shape of shapes) {
    const box = boundsOf(shape);
    const i0 = Math.max(0, Math.floor((box.minX - grid.left) / step));
    const i1 = Math.min(grid.width - 1, Math.ceil((box.maxX - grid.left) / step));
    const j0 = Math.max(0, Math.floor((box.minY - grid.top) / step));
    const j1 = Math.min(grid.height - 1, Math.ceil((box.maxY - grid.top) / step));
    const target = maps[shape.material];
    const path = pathFunction(shape);
    const density = shape.density;
    for (let j = j0; j <= j1; j++) {
      const y = grid.top + (j + 0.5) * step;
      const row = j * grid.width;
      for (let i = i0; i <= i1; i++) {
        const length = path(grid.left + (i + 0.5) * step, y);
        if (length !== 0) target[row + i] = (target[row + i] ?? 0) + length * density;
      }
    }
  }
  // Carving can overshoot where cavities overlap; no ray crosses a negative thickness.
  for (let k = 0; k < size; k++) {
    if ((maps.soft[k] ?? 0) < 0) maps.soft[k] = 0;
    if ((maps.bone[k] ?? 0) < 0) maps.bone[k] = 0;
  }
  return maps;
}
