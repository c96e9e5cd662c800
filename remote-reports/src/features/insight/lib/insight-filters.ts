import { isUuid, type InsightQuery } from '@portal/contract';
import { INSIGHT_CONFIGURATION_MAX_LENGTH, INSIGHT_MAX_RANGE_DAYS, MAX_ID } from '../../../config/constants';

/**
 * The insight screen's filters live in the URL (so a link, reload, back and forward show the same
 * view). Each search parameter is read here, checked as the API checks it (contract InsightQuery),
 * and an invalid one is reported on its field instead of being sent.
 */

export const FILTER_FIELDS = ['from', 'to', 'productId', 'configuration', 'learner'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
/** The organisation, for those who pick it (global administrators). */
export const ORGANISATION_PARAM = 'organisation';

/** Translation keys under 'insight.errors'. */
export type FilterError = 'invalidDate' | 'toBeforeFrom' | 'rangeTooLong' | 'invalidId' | 'tooLong';

export interface ParsedFilters {
  /** The raw values, as the form shows them. */
  values: Record<FilterField, string>;
  /** What the API is asked for: only valid, non-empty values. */
  query: InsightQuery;
  errors: Partial<Record<FilterField, FilterError>>;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Days since the epoch of a real calendar day 'yyyy-MM-dd'; null otherwise (2026-02-30 too). */
export function dayNumber(value: string): number | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const date = new Date(time);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return time / DAY_MS;
}

/** A positive database id, as the URL spells it; null when it is not one. */
export function parseId(value: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

export function parseFilters(params: URLSearchParams): ParsedFilters {
  const values = Object.fromEntries(FILTER_FIELDS.map((f) => [f, params.get(f)?.trim() ?? ''])) as Record<
    FilterField,
    string
  >;
  const query: InsightQuery = {};
  const errors: ParsedFilters['errors'] = {};

  const from = values.from ? dayNumber(values.from) : null;
  const to = values.to ? dayNumber(values.to) : null;
  if (values.from && from === null) errors.from = 'invalidDate';
  if (values.to && to === null) errors.to = 'invalidDate';
  if (from !== null && to !== null && to < from) errors.to = 'toBeforeFrom';
  // The range counts both ends: from 1 January to 1 January is one day.
  else if (from !== null && to !== null && to - from + 1 > INSIGHT_MAX_RANGE_DAYS) errors.to = 'rangeTooLong';
  if (from !== null && !errors.from && !errors.to) query.from = values.from;
  if (to !== null && !errors.to) query.to = values.to;

  if (values.productId) {
    const id = parseId(values.productId);
    if (id === null) errors.productId = 'invalidId';
    else query.productId = id;
  }
  // Learners are users, whose ids are uuids.
  if (values.learner) {
    if (isUuid(values.learner)) query.learner = values.learner.toLowerCase();
    else errors.learner = 'invalidId';
  }

  if (values.configuration.length > INSIGHT_CONFIGURATION_MAX_LENGTH) errors.configuration = 'tooLong';
  else if (values.configuration) query.configuration = values.configuration;

  return { values, query, errors };
}

/**
 * The search parameters for new filter values: empty fields are left out, the organisation (and
 * any parameter the screen does not own) is kept.
 */
export function filtersToParams(current: URLSearchParams, values: Partial<Record<FilterField, string>>): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const field of FILTER_FIELDS) {
    const value = values[field]?.trim() ?? '';
    if (value) next.set(field, value);
    else next.delete(field);
  }
  return next;
}

/** The query string of an InsightQuery, in the field order of the contract. */
export function insightSearch(query: InsightQuery): string {
  const params = new URLSearchParams();
  for (const field of FILTER_FIELDS) {
    const value = query[field];
    if (value !== undefined) params.set(field, String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}
