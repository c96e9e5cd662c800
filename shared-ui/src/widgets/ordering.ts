export type SortDirection = 'ascending' | 'descending';

/** Reads a DRF `ordering` value ("name" or "-name"). */
export function parseOrdering(
  ordering: string | null | undefined,
): { key: string; direction: SortDirection } | null {
  if (!ordering) return null;
  return ordering.startsWith('-')
    ? { key: ordering.slice(1), direction: 'descending' }
    : { key: ordering, direction: 'ascending' };
}

/**
 * The ordering after a click on `key`'s header: a new column sorts ascending, the sorted column
 * flips between ascending and descending. Sorting is never removed (docs/requirements.md#lists).
 */
export function nextOrdering(current: string | null | undefined, key: string): string {
  const parsed = parseOrdering(current);
  if (parsed?.key === key && parsed.direction === 'ascending') return `-${key}`;
  return key;
}
