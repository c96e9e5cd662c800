import { PNG } from 'pngjs';
import type { TubeSettings } from '@portal/contract';
import type { BodyArea } from './body-areas';
import { drawText, textWidth } from './font';
import { airKermaMGy, attenuation, detectorKermaMGy } from './physics';
import { createRandom } from './random';
import { rasterize, type Grid } from './raster';
import { place, type Placement } from './shapes';

export type Side = 'left' | 'right';

export interface RenderOptions {
  area: BodyArea;
  tube: TubeSettings;
  side: Side;
  /** Same seed, same image: patient variation, positioning and quantum noise all derive from it. */
  seed: string | number;
  /** Width and height in pixels. */
  size?: number;
  /** Burn in the side marker and the technique line. */
  annotate?: boolean;
}

export interface Radiograph {
  png: Buffer;
  width: number;
  height: number;
  /** Mean pixel value inside the collimated field, 0–255 (brighter = less exposure). */
  meanFieldValue: number;
}

/**
 * Display curve of the simulated detector, like film: log exposure relative to the area's target
 * maps to brightness through a logistic curve, so an overexposed image is darker overall and an
 * underexposed one brighter. At the target, the reference soft tissue shows a little below mid-grey.
 */
const CURVE_SLOPE = 2.2;
const CURVE_CENTRE = -0.2;
/** Quanta per pixel at the target exposure: sets how grainy an underexposed image gets. */
const QUANTA_AT_TARGET = 300;
/** Brightness outside the collimated field (shuttered, as a DR display shows it). */
const SHUTTER = 0.9;

function blur3(source: Float32Array, width: number, height: number): Float32Array {
  // Separable 1-2-1 kernels: detector unsharpness; it also keeps the noise fine-grained and the PNG small.
  const temp = new Float32Array(source.length);
  const out = new Float32Array(source.length);
  for (let j = 0; j < height; j++) {
    const row = j * width;
    for (let i = 0; i < width; i++) {
      const left = source[row + Math.max(i - 1, 0)] ?? 0;
      const right = source[row + Math.min(i + 1, width - 1)] ?? 0;
      temp[row + i] = (left + 2 * (source[row + i] ?? 0) + right) / 4;
    }
  }
  for (let j = 0; j < height; j++) {
    const up = Math.max(j - 1, 0) * width;
    const down = Math.min(j + 1, height - 1) * width;
    const row = j * width;
    for (let i = 0; i < width; i++) {
      out[row + i] = ((temp[up + i] ?? 0) + 2 * (temp[row + i] ?? 0) + (temp[down + i] ?? 0)) / 4;
    }
  }
  return out;
}

/** A synthetic radiograph of `area` taken with `tube`, as an 8-bit grayscale PNG. */
export function renderRadiograph(options: RenderOptions): Radiograph {
  const { area, tube, side } = options;
  const size = options.size ?? 512;
  const random = createRandom(options.seed);
  const pose = random.fork('pose');
  const mirror = side === 'left';
  const placement: Placement = {
    mirror,
    angle: pose.between(-0.035, 0.035),
    scale: pose.between(0.97, 1.03),
    shift: [pose.between(-0.4, 0.4), pose.between(-0.4, 0.4)],
  };
  const shapes = area.build(random.fork('anatomy')).map((shape) => place(shape, placement));
  const centerX = mirror ? -area.center[0] : area.center[0];
  const cmPerPixel = area.viewCm / size;
  const grid: Grid = {
    width: size,
    height: size,
    left: centerX - area.viewCm / 2,
    top: area.center[1] - area.viewCm / 2,
    cmPerPixel,
  };
  const maps = rasterize(shapes, grid);

  const mu = attenuation(tube.kV);
  const target = detectorKermaMGy(area.defaults, area.softRefCm);
  const unattenuated = airKermaMGy(tube) / target;
  const noise = random.fork('quantum noise');
  const field = fieldPixels(area, cmPerPixel, size);

  const brightness = new Float32Array(size * size).fill(SHUTTER);
  for (let j = field.top; j < field.bottom; j++) {
    for (let i = field.left; i < field.right; i++) {
      const k = j * size + i;
      const relative = unattenuated * Math.exp(-(mu.soft * (maps.soft[k] ?? 0) + mu.bone * (maps.bone[k] ?? 0)));
      const quanta = QUANTA_AT_TARGET * relative;
      const noisy = Math.max(relative * (1 + noise.gaussian() / Math.sqrt(Math.max(quanta, 1))), 1e-4);
      brightness[k] = 1 / (1 + Math.exp(CURVE_SLOPE * (Math.log10(noisy) - CURVE_CENTRE)));
    }
  }
  const smooth = blur3(brightness, size, size);

  const pixels = new Uint8Array(size * size);
  for (let k = 0; k < pixels.length; k++) pixels[k] = Math.round(Math.min(1, Math.max(0, smooth[k] ?? 0)) * 255);
  let fieldSum = 0;
  for (let j = field.top; j < field.bottom; j++) {
    for (let i = field.left; i < field.right; i++) fieldSum += pixels[j * size + i] ?? 0;
  }
  const fieldCount = (field.bottom - field.top) * (field.right - field.left);

  if (options.annotate ?? true) annotate(pixels, size, area, tube, side, field);

  const png = new PNG({ width: size, height: size, colorType: 0, inputColorType: 0, inputHasAlpha: false, bitDepth: 8 });
  png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  return {
    png: PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, deflateLevel: 6, filterType: 4 }),
    width: size,
    height: size,
    meanFieldValue: fieldCount === 0 ? 0 : fieldSum / fieldCount,
  };
}

interface FieldPixels {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** The collimated field, centred in the image, in pixels (right and bottom exclusive). */
function fieldPixels(area: BodyArea, cmPerPixel: number, size: number): FieldPixels {
  const halfWidth = Math.min(size / 2, area.fieldCm[0] / 2 / cmPerPixel);
  const halfHeight = Math.min(size / 2, area.fieldCm[1] / 2 / cmPerPixel);
  return {
    left: Math.round(size / 2 - halfWidth),
    right: Math.round(size / 2 + halfWidth),
    top: Math.round(size / 2 - halfHeight),
    bottom: Math.round(size / 2 + halfHeight),
  };
}

/**
 * Lead side marker in the upper corner on the patient's side (R on the viewer's left in AP/PA),
 * and the area and technique along the bottom of the field.
 */
function annotate(
  pixels: Uint8Array,
  size: number,
  area: BodyArea,
  tube: TubeSettings,
  side: Side,
  field: FieldPixels,
): void {
  const inset = Math.max(4, Math.round(size / 64));
  const left = field.left + inset;
  const right = field.right - inset;
  const top = field.top + inset;
  const bottom = field.bottom - inset;
  const markerScale = Math.max(2, Math.round(size / 100));
  const marker = side === 'right' ? 'R' : 'L';
  const markerX = side === 'right' ? left : right - textWidth(marker, markerScale);
  drawText(pixels, size, size, marker, markerX, top, { scale: markerScale });

  const textScale = Math.max(1, Math.round(size / 256));
  const line = `${area.label} ${area.projection}  ${formatNumber(tube.kV)}KV ${formatNumber(tube.mAs)}MAS ${formatNumber(tube.sidCm)}CM`;
  drawText(pixels, size, size, line, left, bottom - 7 * textScale, { scale: textScale, value: 235 });
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
