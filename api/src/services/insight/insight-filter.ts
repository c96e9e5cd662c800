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

export const INSIGHT_MESSAGES = {
  toBeforeFrom: 'Must not be before the start of the range.',
  rangeTooLong: `The range may cover at most ${INSIGHT_MAX_RANGE_DAYS} days.`,
  notALearner: 'Select a learner of this organisation.',
} as const;

/**
 * The request's range and filters, or a 400 naming the field: `to` before `from`, or a range
 * over INSIGHT_MAX_RANGE_DAYS (named on `from`, the end the screen moves back). Both ends default
 * to the INSIGHT_DEFAULT_RANGE_DAYS up to today (UTC); one end given alone anchors the other.
 */
export function insightFilter(
  organisationId: number,
  query: InsightQuery,
  now: Date = new Date(),
): InsightFilter {
  const span = (INSIGHT_DEFAULT_RANGE_DAYS - 1) * DAY_MS;
  const to = query.to ?? (query.from ? isoDay(dayMs(query.from) + span) : isoDay(now.getTime()));
  const from = query.from ?? isoDay(dayMs(to) - span);
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
