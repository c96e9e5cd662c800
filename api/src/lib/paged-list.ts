import {
  DEFAULT_PAGE_SIZE,
  INVALID_PAGE,
  type PagedQuery,
  type PagedResult,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { fieldError, notFound } from './http-errors';

/**
 * How one list is read. Every SQL fragment here is written by us, never by the client: the client
 * only picks among `sortable` keys and supplies `filter`, which is passed as a parameter.
 */
export interface PagedListSpec<Row, Item> {
  /** `from …` clause with joins, without the word `from`. */
  from: string;
  /** Select list. */
  select: string;
  /** Extra conditions with `$1…` placeholders, e.g. access rules. */
  where?: { sql: string; params: readonly unknown[] };
  /** Client ordering name → SQL expression. */
  sortable: Readonly<Record<string, string>>;
  /** SQL expressions the `filter` text is searched in (case-insensitive substring). */
  searchable: readonly string[];
  /**
   * Replaces `searchable` when the text lives in other tables: builds the condition around the
   * filter's `ilike` pattern placeholder (e.g. `$2`), so it can be a semi-join on small tables.
   */
  search?: (pattern: string) => string;
  /**
   * Counts the rows when no filter is given, e.g. from a maintained counter, for lists too long
   * to count row by row on every page.
   */
  unfilteredCount?: { sql: string; params: readonly unknown[] };
  /** Used when the client sends no `ordering`, e.g. `-id`. */
  defaultOrdering: string;
  /**
   * Unique expression appended to every ordering so pages never overlap, e.g. `o.id`; or one per
   * direction of the last ordering term, so that `(key, id)` index serves both directions.
   */
  tieBreaker: string | TieBreaker;
  /**
   * Ordering names whose expression is never null: ordered without `nulls last`, which a
   * backward scan of an ascending index cannot give.
   */
  notNull?: readonly string[];
  /**
   * Picks the page's `key`s from this narrower `from` first (the ordering and conditions must
   * only use its columns), then reads the rows of just those keys: the skipped rows of a deep
   * page are then index entries, not joined rows.
   */
  pageFrom?: { from: string; key: string };
  map: (row: Row) => Item;
}

export type TieBreaker = (lastDescending: boolean) => string;

export const MAX_PAGE_SIZE = 100;

/** `%`, `_` and the escape character itself are literal in a filter, not wildcards. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function orderByClause(
  ordering: string,
  sortable: Readonly<Record<string, string>>,
  tieBreaker: string | TieBreaker,
  notNull: readonly string[] = [],
): string {
  const parts: string[] = [];
  let lastDescending = false;
  for (const raw of ordering.split(',')) {
    const term = raw.trim();
    const descending = term.startsWith('-');
    const name = descending ? term.slice(1) : term;
    const expression = Object.hasOwn(sortable, name) ? sortable[name] : undefined;
    if (!expression) {
      const allowed = Object.keys(sortable).join(', ');
      throw fieldError('ordering', `Invalid ordering field "${name}". Allowed: ${allowed}.`);
    }
    const nulls = notNull.includes(name) ? '' : ' nulls last';
    parts.push(`${expression} ${descending ? 'desc' : 'asc'}${nulls}`);
    lastDescending = descending;
  }
  parts.push(typeof tieBreaker === 'string' ? tieBreaker : tieBreaker(lastDescending));
  return parts.join(', ');
}

/**
 * Reads one page the DRF way (docs/decisions.md#api-conventions): `page` from 1, `pageSize` (default 20, max 100),
 * `ordering` (comma list, `-` for descending), `filter`. An empty list is page 1 of 1 with
 * count 0, as Django's paginator answers; a page past the last answers 404 "Invalid page.".
 */
export async function pagedList<Row, Item>(
  db: Queryable,
  query: PagedQuery,
  spec: PagedListSpec<Row, Item>,
): Promise<PagedResult<Item>> {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (!Number.isInteger(page) || page < 1) throw notFound(INVALID_PAGE);
  if (!Number.isInteger(pageSize) || pageSize < 1) throw fieldError('pageSize', 'must be >= 1');

  const orderBy = orderByClause(
    query.ordering?.trim() || spec.defaultOrdering,
    spec.sortable,
    spec.tieBreaker,
    spec.notNull,
  );

  const conditions: string[] = [];
  const params: unknown[] = [...(spec.where?.params ?? [])];
  if (spec.where) conditions.push(`(${spec.where.sql})`);
  const filter = query.filter?.trim();
  const filtered = Boolean(filter) && (spec.search !== undefined || spec.searchable.length > 0);
  if (filter && filtered) {
    params.push(`%${escapeLike(filter)}%`);
    const p = `$${params.length}`;
    conditions.push(
      spec.search
        ? `(${spec.search(p)})`
        : `(${spec.searchable.map((column) => `(${column})::text ilike ${p} escape '\\'`).join(' or ')})`,
    );
  }
  const where = conditions.length > 0 ? `where ${conditions.join(' and ')}` : '';

  const counted =
    !filtered && spec.unfilteredCount
      ? await db.query<{ count: number }>(spec.unfilteredCount.sql, spec.unfilteredCount.params)
      : await db.query<{ count: number }>(
          `select count(*)::int as count from ${spec.pageFrom?.from ?? spec.from} ${where}`,
          params,
        );
  const count = counted.rows[0]?.count ?? 0;
  const totalPages = Math.max(1, Math.ceil(count / pageSize));
  if (page > totalPages) throw notFound(INVALID_PAGE);

  const limit = `limit ${pageSize} offset ${(page - 1) * pageSize}`;
  const rows = await db.query<Row>(
    spec.pageFrom
      ? `select ${spec.select} from ${spec.from}
          where ${spec.pageFrom.key} in (select ${spec.pageFrom.key} from ${spec.pageFrom.from}
                                          ${where} order by ${orderBy} ${limit})
          order by ${orderBy}`
      : `select ${spec.select} from ${spec.from} ${where} order by ${orderBy} ${limit}`,
    params,
  );
  return { count, totalPages, results: rows.rows.map(spec.map) };
}
