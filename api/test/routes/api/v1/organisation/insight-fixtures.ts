import fc from 'fast-check';
import { account, authHeader, type TestApp } from '../../../../helper';
import { hostileText } from '../../../../security/fuzz-arbitraries';
import { fuzzer, type Fixture, type Fuzzer } from '../../../../security/suite-shapes';
import { organisationId } from './admin-fixtures';

/**
 * Cohort insight, its export and the learner's progress (issue #23 points 4–5) for the auth matrix
 * and the fuzz suite. Insight: an educator (view_org_reports) of the organisation, or a global
 * administrator; the export also an org admin (export_user_data). Any other organisation is a 404;
 * another organisation's learner as the `learner` filter is a 400 on the field (insight.test.ts).
 */
const learner = account('learner', 'Demo Hospital');
const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');
const otherEducator = account('educator', 'Demo Brightspace College');
const otherAdmin = account('org admin', 'Demo Brightspace College');
const sysAdmin = account('sys admin');

const RANGE = 'from=2026-01-01&to=2026-03-31';
const url = (org: number, rest = '') => `/api/v1/organisation/${org}/insight${rest}?${RANGE}`;

export function insightFixtures(app: () => TestApp): Record<string, Fixture> {
  const demo = () => organisationId(app().db, 'Demo Hospital');
  const other = () => organisationId(app().db, 'Demo Brightspace College');
  const scoped = (rest: string, actor: typeof educator, outsider: typeof educator): Fixture => ({
    actor,
    build: async () => ({ url: url(await demo(), rest) }),
    foreign: async () => [
      { as: actor, what: 'another organisation', req: { url: url(await other(), rest) } },
      {
        as: outsider,
        what: 'Demo Hospital from another organisation',
        req: { url: url(await demo(), rest) },
      },
    ],
  });
  return {
    'GET /api/v1/organisation/:id/insight': scoped('', educator, otherEducator),
    'GET /api/v1/organisation/:id/insight/export.csv': scoped('/export.csv', orgAdmin, otherAdmin),
    'GET /api/v1/report/progress': { build: async () => ({ url: '/api/v1/report/progress' }) },
  };
}

const hostile = hostileText([
  '',
  ' ',
  '2026-02-30',
  '0000-00-00',
  '9999-12-31',
  "'; drop table users; --",
  '%00',
]);
const day = fc
  .date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2100-01-01T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

/** Read routes: never a 5xx, whatever the query (dates, ids, names, stray keys). */
function insightFuzzer(rest: string): Fuzzer {
  return fuzzer({
    input: fc.record({
      as: fc.constantFrom(educator.sub, orgAdmin.sub, sysAdmin.sub, learner.sub, otherEducator.sub),
      org: fc.oneof({ weight: 3, arbitrary: fc.constant('@demo') }, fc.integer(), hostile),
      query: fc.dictionary(
        fc.constantFrom('from', 'to', 'productId', 'configuration', 'learner', 'x'),
        fc.oneof(day, hostile, fc.integer().map(String), fc.uuid()),
        { maxKeys: 5 },
      ),
    }),
    async request(ctx, input) {
      const org =
        input.org === '@demo' ? await organisationId(ctx.t.db, 'Demo Hospital') : input.org;
      return {
        method: 'GET',
        url: `/api/v1/organisation/${encodeURIComponent(String(org))}/insight${rest}?${new URLSearchParams(input.query)}`,
        headers: await authHeader(input.as),
      };
    },
  });
}

export const insightFuzzers: Record<string, Fuzzer> = {
  'GET /api/v1/organisation/:id/insight': insightFuzzer(''),
  'GET /api/v1/organisation/:id/insight/export.csv': insightFuzzer('/export.csv'),
};
