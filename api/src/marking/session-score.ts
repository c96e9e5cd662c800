/**
 * A session's score from its marked images: per projection (the image's practice activity, e.g.
 * "Knee AP (left)") the best image counts, and the session scores the mean of those, rounded to a
 * whole percent. Repeating a projection can thus raise its mark, but every repeat is marked down
 * by the scheme's `repeats` criterion, so a repeat has to be clearly better to pay. Null when no
 * image carries a score: a session without marked evidence has no grade.
 */
export interface ScoredImage {
  projection: string;
  score: number | null;
}

export function sessionScore(images: readonly ScoredImage[]): number | null {
  const best = new Map<string, number>();
  for (const { projection, score } of images) {
    if (score === null) continue;
    best.set(projection, Math.max(best.get(projection) ?? 0, score));
  }
  if (best.size === 0) return null;
  let sum = 0;
  for (const score of best.values()) sum += score;
  return Math.round(sum / best.size);
}

/** An image of the session as its final score sees it: `pending` while it waits for marking. */
export interface ImageToScore extends ScoredImage {
  pending: boolean;
}

/**
 * The session's score once every image is marked; null while any still waits for the outbox
 * worker's marking (mark-evidence.ts): a score of some images only is not the session's score,
 * and nothing may be posted or shown as final from it.
 */
export function finalSessionScore(images: readonly ImageToScore[]): number | null {
  return images.some((i) => i.pending) ? null : sessionScore(images);
}
