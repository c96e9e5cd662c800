import {
  INSIGHT_DEFAULT_RANGE_DAYS,
  INSIGHT_MAX_RANGE_DAYS,
  type InsightQuery,
  type InsightWeek,
} from '@portal/contract';
import { fieldError } from '../../lib/http-errors';
import type { InsightFilter } from '../../repositories/insight-repository';

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** The days PostgreSQL's `date` and a four-digit year share (a request's `0000-…` is neither). */
const FIRST_DAY = '0001-01-01';
const LAST_DAY = '9999-12-31';

export const INSIGHT_MESSAGES = {
  toBeforeFrom: 'Must not be before the start of the range.',
  outOfRange: `Must be a day from ${FIRST_DAY} to ${LAST_DAY}.`,
  rangeTooLong: `The range may cover at most ${INSIGHT_MAX_RANGE_DAYS} days.`,
  notALearner: 'Select a learner of this organisation.',
} as const;

/**
 * The request's range and filters, or a 400 naming the field: a day outside 0001–9999, `to`
 * before `from`, or a range over INSIGHT_MAX_RANGE_DAYS (named on `from`, the end the screen
 * moves back). Both ends default to the INSIGHT_DEFAULT_RANGE_DAYS up to today (UTC); one end
 * given alone anchors the other.
 */
export function insightFilter(
  organisationId: number,
  query: InsightQuery,
  now: Date = new Date(),
): InsightFilter {
  for (const field of ['from', 'to'] as const) {
    const day = query[field];
    if (day !== undefined && (day < FIRST_DAY || day > LAST_DAY)) {
      throw fieldError(field, INSIGHT_MESSAGES.outOfRange);
    }
  }
  const span = (INSIGHT_DEFAULT_RANGE_DAYS - 1) * DAY_MS;
  // An end derived from the other stays within the days a date can name (isoDay of a later day
  // is no date: "+010000-…").
  const within = (ms: number) => isoDay(Math.min(Math.max(ms, dayMs(FIRST_DAY)), dayMs(LAST_DAY)));
  const to = query.to ?? (query.from ? within(dayMs(query.from) + span) : isoDay(now.getTime()));
  const from = query.from ?? within(dayMs(to) - span);
  if (dayMs(to) < dayMs(from)) throw fieldError('to', INSIGHT_MESSAGES.toBeforeFrom);
  if ((dayMs(to) - dayMs(from)) / DAY_MS + 1 > INSIGHT_MAX_RANGE_DAYS) {
    throw fieldError('from', INSIGHT_MESSAGES.rangeTooLong);
  }
  return {
    organisationId,
    from,
    to,
    productId: query.productId ?? null,
    configuration: query.configuration ?? null,
    learner: query.learner?.toLowerCase() ?? null,
  };
}

/** Every Monday-starting week the range touches, with the counts of those that had reports. */
export function weeksWithZeros(from: string, to: string, counted: InsightWeek[]): InsightWeek[] {
  const byStart = new Map(counted.map((w) => [w.weekStart, w]));
  const first = dayMs(from) - ((new Date(dayMs(from)).getUTCDay() + 6) % 7) * DAY_MS;
  const weeks: InsightWeek[] = [];
  for (let t = first; t <= dayMs(to); t += 7 * DAY_MS) {
    const weekStart = isoDay(t);
    weeks.push(byStart.get(weekStart) ?? { weekStart, sessions: 0, activeLearners: 0 });
  }
  return weeks;
}
