import type { ProductCategory } from '@portal/contract';

/**
 * The splat of /simulation/{productId}/{id}/{id}…: slash-separated numeric category ids.
 * '' is the product itself; anything else that is not a list of ids is not a page (null).
 */
export function parseCategoryPath(splat: string | undefined): number[] | null {
  const segments = (splat ?? '').split('/').filter((s, i, all) => s !== '' || i < all.length - 1);
  if (segments.length === 0) return [];
  if (!segments.every((s) => /^[1-9]\d{0,9}$/.test(s))) return null;
  return segments.map(Number);
}

export function parseProductId(value: string | undefined): number | null {
  return value !== undefined && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null;
}

/**
 * Walks the tree along the ids, each one a child of the one before. Returns the nodes passed
 * (for the breadcrumbs), or null when an id is not where the path puts it.
 */
export function resolveCategoryPath(
  roots: readonly ProductCategory[],
  ids: readonly number[],
): ProductCategory[] | null {
  const trail: ProductCategory[] = [];
  let children = roots;
  for (const id of ids) {
    const next = children.find((c) => c.id === id);
    if (!next) return null;
    trail.push(next);
    children = next.children;
  }
  return trail;
}
