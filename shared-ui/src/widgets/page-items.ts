export type PageItem = number | 'start-ellipsis' | 'end-ellipsis';

/**
 * The page links to show: every page when they fit in `maxLinks`, otherwise the first and last
 * page plus a window around the current one, with an ellipsis where pages are left out.
 * Page 7 of 20 with 6 links: 1 … 6 7 8 9 … 20.
 */
export function getPageItems(page: number, totalPages: number, maxLinks = 6): PageItem[] {
  if (!Number.isInteger(totalPages) || totalPages < 0) {
    throw new Error(`Pagination: totalPages must be a whole number >= 0, got ${totalPages}.`);
  }
  if (!Number.isInteger(maxLinks) || maxLinks < 3) {
    throw new Error(`Pagination: maxLinks must be a whole number >= 3, got ${maxLinks}.`);
  }
  if (totalPages <= maxLinks) return Array.from({ length: totalPages }, (_, i) => i + 1);

  const current = Math.min(Math.max(page, 1), totalPages);
  const middle = maxLinks - 2;
  let start = current - Math.floor((middle - 1) / 2);
  start = Math.max(2, Math.min(start, totalPages - middle));
  const end = start + middle - 1;

  const items: PageItem[] = [1];
  if (start > 2) items.push('start-ellipsis');
  for (let p = start; p <= end; p++) items.push(p);
  if (end < totalPages - 1) items.push('end-ellipsis');
  items.push(totalPages);
  return items;
}
