/** A small seeded generator (mulberry32): the same seed gives the same image on every machine. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Standard normal (Box–Muller). */
  gaussian(): number;
  /** A generator for a sub-task whose draws do not shift this one's sequence. */
  fork(label: string): Random;
}

/** FNV-1a: turns a text seed (session uuid, image number) into 32 bits. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function createRandom(seed: number | string): Random {
  const initial = typeof seed === 'string' ? hashSeed(seed) : seed >>> 0;
  let state = initial;
  let spare: number | null = null;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    gaussian() {
      if (spare !== null) {
        const value = spare;
        spare = null;
        return value;
      }
      // 1 - next() is in (0, 1], so the logarithm is finite.
      const radius = Math.sqrt(-2 * Math.log(1 - next()));
      const angle = 2 * Math.PI * next();
      spare = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    },
    fork: (label) => createRandom(hashSeed(`${initial}:${label}`)),
  };
}
