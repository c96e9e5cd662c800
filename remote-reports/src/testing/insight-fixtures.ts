// Insight and progress answers typed by the contract (issue #23 point 4), and MSW handlers that
// record what the screens asked for.
import { http, HttpResponse } from 'msw';
import type { SetupServerApi } from 'msw/node';
import type { FieldErrors, Insight, Organisation, PagedResult, Product, Progress } from '@portal/contract';

export function insight(overrides: Partial<Insight> = {}): Insight {
  return {
    organisationId: 1,
    from: '2026-03-02',
    to: '2026-03-15',
    totals: { sessions: 7, activeLearners: 3, images: 24, meanMark: 71.25 },
    weeks: [
      { weekStart: '2026-03-02', sessions: 5, activeLearners: 3 },
      { weekStart: '2026-03-09', sessions: 2, activeLearners: 1 },
    ],
    projections: [
      { projection: 'Knee AP', images: 14, repeatRate: 0.25, rejectRate: 0.125, medianDoseToDrl: 0.84, p75DoseToDrl: 1.12, meanMark: 68.5 },
      { projection: 'Knee lateral', images: 10, repeatRate: 0, rejectRate: null, medianDoseToDrl: null, p75DoseToDrl: null, meanMark: null },
    ],
    learners: [
      { userId: '00000000-0000-4000-8000-000000000011', name: 'Ada Apprentice', sessions: 4, meanMark: 75.5, firstToLastChange: 12.5, lastActive: '2026-03-12T09:30:00.000Z' },
      { userId: '00000000-0000-4000-8000-000000000012', name: 'Ben Beginner', sessions: 2, meanMark: 61, firstToLastChange: -3, lastActive: '2026-03-04T15:00:00.000Z' },
      { userId: '00000000-0000-4000-8000-000000000013', name: 'Cleo Cadet', sessions: 1, meanMark: null, firstToLastChange: null, lastActive: null },
    ],
    ...overrides,
  };
}

export const emptyInsight = (): Insight =>
  insight({
    totals: { sessions: 0, activeLearners: 0, images: 0, meanMark: null },
    weeks: [
      { weekStart: '2026-03-02', sessions: 0, activeLearners: 0 },
      { weekStart: '2026-03-09', sessions: 0, activeLearners: 0 },
    ],
    projections: [],
    learners: [],
  });

type Answer<T> = T | Response;

/**
 * GET /api/v1/organisation/:id/insight answered per request; records each request's
 * organisation and query.
 */
export function serveInsight(
  server: SetupServerApi,
  answer: (query: URLSearchParams, organisationId: number) => Answer<Insight> | Promise<Answer<Insight>> = () => insight(),
) {
  const requests: { organisationId: number; query: URLSearchParams }[] = [];
  server.use(
    http.get<{ id: string }>('/api/v1/organisation/:id/insight', async ({ params, request }) => {
      const query = new URL(request.url).searchParams;
      const organisationId = Number(params.id);
      requests.push({ organisationId, query });
      const result = await answer(query, organisationId);
      return result instanceof Response ? result : HttpResponse.json<Insight>(result);
    }),
    http.get('/api/v1/product', () => HttpResponse.json<Product[]>([product({ id: 1, name: 'Radiography' }), product({ id: 2, name: 'Fluoroscopy' })])),
  );
  return { requests };
}

export const fieldErrors = (errors: FieldErrors) => HttpResponse.json(errors, { status: 400 });

export function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 1,
    code: 'radiography',
    name: 'Radiography',
    description: '',
    protocol: 'sim',
    launchProtocols: ['sim'],
    image: null,
    selectionMessage: null,
    ...overrides,
  };
}

/**
 * GET /api/v1/organisation as the API answers it: searched by `filter` (name or city, any case),
 * ordered by name, paged; and GET /api/v1/organisation/:id. Records each list request's query.
 */
export function serveOrganisations(server: SetupServerApi, organisations: (Pick<Organisation, 'id' | 'name'> & Partial<Organisation>)[]) {
  const queries: URLSearchParams[] = [];
  const full = organisations.map((o) => ({ isActive: true, city: null, ...o }) as Organisation);
  server.use(
    http.get('/api/v1/organisation', ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const filter = (query.get('filter') ?? '').toLowerCase();
      const page = Number(query.get('page') ?? 1);
      const pageSize = Number(query.get('pageSize') ?? 20);
      const matches = full
        .filter((o) => !filter || o.name.toLowerCase().includes(filter) || (o.city ?? '').toLowerCase().includes(filter))
        .sort((a, b) => a.name.localeCompare(b.name));
      return HttpResponse.json({
        count: matches.length,
        totalPages: Math.max(1, Math.ceil(matches.length / pageSize)),
        results: matches.slice((page - 1) * pageSize, page * pageSize),
      } satisfies PagedResult<Organisation>);
    }),
    http.get<{ id: string }>('/api/v1/organisation/:id', ({ params }) => {
      const found = full.find((o) => String(o.id) === params.id);
      return found ? HttpResponse.json<Organisation>(found) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 });
    }),
  );
  return { queries };
}

export function progress(overrides: Partial<Progress> = {}): Progress {
  return {
    projections: [
      {
        projection: 'Knee AP',
        points: [
          { reportId: '0f8fad5b-d9cb-469f-a165-70867728950e', recorded: '2026-03-02T10:00:00.000Z', mark: 55 },
          { reportId: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', recorded: '2026-03-09T10:00:00.000Z', mark: 62.5 },
          { reportId: '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b', recorded: '2026-03-12T14:30:00.000Z', mark: 80 },
        ],
      },
      {
        projection: 'Knee lateral',
        points: [{ reportId: '3f333df6-90a4-4fda-8dd3-9485d27cee36', recorded: '2026-03-12T15:00:00.000Z', mark: 90 }],
      },
    ],
    ...overrides,
  };
}

export function serveProgress(server: SetupServerApi, answer: () => Answer<Progress> = () => progress()) {
  let calls = 0;
  server.use(
    http.get('/api/v1/report/progress', () => {
      calls += 1;
      const result = answer();
      return result instanceof Response ? result : HttpResponse.json<Progress>(result);
    }),
  );
  return { calls: () => calls };
}
