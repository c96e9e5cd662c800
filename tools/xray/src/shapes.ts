/**
 * The anatomy is drawn as projected solids: each shape adds, per pixel, the length of the ray
 * that crosses it (cm) times a density to the soft-tissue or the bone thickness map. Negative
 * densities carve out air (lungs, bowel gas) or marrow cavities, which is exact for nested solids.
 */
export type Material = 'soft' | 'bone';
export type Point = readonly [x: number, y: number];

interface ShapeBase {
  material: Material;
  /** 1 = tissue or cortical bone; about 0.4 for spongy bone, below 0 for cavities. */
  density: number;
}

/** A rounded rod (cylinder with hemispherical ends) between `a` and `b`; `depth` flattens it. */
export interface Capsule extends ShapeBase {
  kind: 'capsule';
  a: Point;
  b: Point;
  radius: number;
  /** Half-thickness along the beam; defaults to the radius (round cross-section). */
  depth?: number;
}

/** An ellipsoid with semi-axes rx, ry in the image plane (rotated by `angle`) and `depth` along the beam. */
export interface Ellipsoid extends ShapeBase {
  kind: 'ellipsoid';
  center: Point;
  rx: number;
  ry: number;
  depth: number;
  angle?: number;
}

/** A curved rod along a circular arc (ribs, mandible, iliac crest), angles in radians, y down. */
export interface Arc extends ShapeBase {
  kind: 'arc';
  center: Point;
  arcRadius: number;
  from: number;
  to: number;
  radius: number;
  depth?: number;
}

/** A slab with rounded corners (vertebral bodies), of constant `depth` with soft edges. */
export interface Slab extends ShapeBase {
  kind: 'slab';
  center: Point;
  width: number;
  height: number;
  depth: number;
  corner: number;
  angle?: number;
}

export type Shape = Capsule | Ellipsoid | Arc | Slab;

/** Cortical bone with a spongy core: a solid shell and, inside, the core's lower density. */
export function hollow<T extends Capsule | Ellipsoid>(outer: T, wall: number, coreDensity = 0.35): Shape[] {
  const inner: Shape =
    outer.kind === 'capsule'
      ? { ...outer, radius: outer.radius * (1 - wall), depth: outer.depth === undefined ? undefined : outer.depth * (1 - wall), density: -(outer.density - coreDensity) }
      : { ...outer, rx: outer.rx * (1 - wall), ry: outer.ry * (1 - wall), depth: outer.depth * (1 - wall), density: -(outer.density - coreDensity) };
  return [outer, inner];
}

export const bone = (density = 1) => ({ material: 'bone' as const, density });
export const soft = (density = 1) => ({ material: 'soft' as const, density });

/** A rigid placement of the anatomy: mirror (left/right), rotate, scale and shift, in cm. */
export interface Placement {
  mirror: boolean;
  angle: number;
  scale: number;
  shift: Point;
}

export function place(shape: Shape, p: Placement): Shape {
  const cos = Math.cos(p.angle);
  const sin = Math.sin(p.angle);
  const point = ([x0, y0]: Point): Point => {
    const x = (p.mirror ? -x0 : x0) * p.scale;
    const y = y0 * p.scale;
    return [x * cos - y * sin + p.shift[0], x * sin + y * cos + p.shift[1]];
  };
  const angle = (a: number) => (p.mirror ? Math.PI - a : a) + p.angle;
  const length = (l: number) => l * p.scale;
  switch (shape.kind) {
    case 'capsule':
      return { ...shape, a: point(shape.a), b: point(shape.b), radius: length(shape.radius), depth: shape.depth === undefined ? undefined : length(shape.depth) };
    case 'ellipsoid':
      return { ...shape, center: point(shape.center), rx: length(shape.rx), ry: length(shape.ry), depth: length(shape.depth), angle: (p.mirror ? -(shape.angle ?? 0) : (shape.angle ?? 0)) + p.angle };
    case 'arc': {
      // Mirroring reverses the direction of travel, so the end angles swap.
      const [from, to] = p.mirror ? [angle(shape.to), angle(shape.from)] : [angle(shape.from), angle(shape.to)];
      return { ...shape, center: point(shape.center), arcRadius: length(shape.arcRadius), radius: length(shape.radius), depth: shape.depth === undefined ? undefined : length(shape.depth), from, to };
    }
    case 'slab':
      return { ...shape, center: point(shape.center), width: length(shape.width), height: length(shape.height), depth: length(shape.depth), corner: length(shape.corner), angle: (p.mirror ? -(shape.angle ?? 0) : (shape.angle ?? 0)) + p.angle };
  }
}
