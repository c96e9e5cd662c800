// Test data typed by the contract, so a change of an API shape breaks the tests that use it.
import { http, HttpResponse } from 'msw';
import type { SetupServerApi } from 'msw/node';
import type {
  AnalysisBody,
  Evidence,
  FieldErrors,
  ImageUrl,
  LearnerReportRow,
  LessonData,
  LookupList,
  PagedResult,
  Report,
  ReportRow,
} from '@portal/contract';

export const REPORT_UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

export function reportRow(overrides: Partial<ReportRow> = {}): ReportRow {
  return {
    id: 1,
    uuid: REPORT_UUID,
    simulation: 'Radiography',
    session: 'Knee AP',
    recorded: '2026-03-05T14:05:00.000Z',
    analysisStatusSummary: 'completed',
    hasReportDetails: true,
    ...overrides,
  };
}

export function learnerRow(overrides: Partial<LearnerReportRow> = {}): LearnerReportRow {
  return { ...reportRow(overrides), user: 'Lena Learner', ...overrides };
}

export function paged<T>(results: T[], totalPages = 1): PagedResult<T> {
  return { count: results.length, totalPages, results };
}

export function evidence(overrides: Partial<Evidence> = {}): Evidence {
  return {
    id: 11,
    userName: 'Lena Learner',
    userEmail: 'learner@demo.test',
    practiceActivity: 'Knee AP',
    analysis: null,
    analysisStatus: 22001,
    hasImage: true,
    evidenceData: {
      meta: { type: 'xray_image' },
      // As the simulator sends them (@portal/xray), plus a key no translation knows yet.
      settings: { bodyArea: 'knee', projection: 'AP', side: 'left', fieldWidthCm: 18 },
      console: { deviationIndex: -0.4, exposure: 'good', meanPixelValue: 1450, grid: false },
      tube: { kV: 65, mAs: 4.5, sidCm: 110 },
      dose: { dapMGyCm2: 12.34 },
    },
    marks: null,
    markingPending: false,
    feedback: null,
    overrides: [],
    ...overrides,
  };
}

export function lessonPart(
  id: number,
  lesson: Pick<LessonData, 'index' | 'partIndex' | 'doseTime' | 'doses'>,
  overrides: Partial<Evidence> = {},
): Evidence {
  const base = evidence({ id, practiceActivity: `Lesson ${lesson.index + 1} part ${lesson.partIndex + 1}`, hasImage: false });
  return {
    ...base,
    evidenceData: {
      ...base.evidenceData,
      meta: { type: 'rs_lesson_part' },
      lesson: { id: `lesson-${lesson.index}`, count: 1, partId: `part-${lesson.partIndex}`, ...lesson },
    },
    ...overrides,
  };
}

export function report(overrides: Partial<Report> = {}): Report {
  return {
    id: 1,
    uuid: REPORT_UUID,
    simulation: 'Radiography',
    description: 'Knee AP',
    recorded: '2026-03-05T14:05:00.000Z',
    mode: 'VR',
    userName: 'Lena Learner',
    userEmail: 'learner@demo.test',
    isOwner: true,
    analysisStatusSummary: 'not_started',
    reportDetails: { summary: 'Two of three images met the criteria.', score: 67 },
    grade: {
      score: null,
      reportedScore: 67,
      passMark: null,
      release: 'not_applicable',
      releasedAt: null,
      canRelease: false,
    },
    feedback: null,
    canGiveFeedback: false,
    evidence: [evidence()],
    ...overrides,
  };
}

export const ANALYSIS_STATUSES: LookupList = [
  { id: 22001, name: 'Not analysed', description: null, code: 'not_analysed' },
  { id: 22002, name: 'Accepted', description: null, code: 'accepted' },
  { id: 22003, name: 'Rejected', description: null, code: 'rejected' },
];

export const imageUrl = (id: number) => `/api/v1/storage/evidence/${id}.png?expires=1&sig=abc`;

/**
 * GET report, its image URLs and the analysis_status lookup; PUT analysis stores what it was
 * sent (or answers `analysisErrors` with 400), so a reload shows the saved state.
 */
export function serveReport(server: SetupServerApi, initial: Report, options: { analysisErrors?: FieldErrors } = {}) {
  let current = initial;
  const puts: { evidenceId: number; body: AnalysisBody }[] = [];
  server.use(
    http.get<{ reportId: string }, never, Report>('/api/v1/report/:reportId', ({ params }) =>
      params.reportId === current.uuid ? HttpResponse.json(current) : HttpResponse.json({ detail: 'Not found.' } as never, { status: 404 }),
    ),
    http.get<{ reportId: string }, never, ImageUrl[]>('/api/v1/report/:reportId/image', ({ request }) => {
      const ids = new URL(request.url).searchParams.getAll('id').map(Number);
      return HttpResponse.json(ids.map((id) => ({ id, url: imageUrl(id) })));
    }),
    http.get<never, never, LookupList>('/api/v1/lookup', ({ request }) =>
      new URL(request.url).searchParams.get('field') === 'analysis_status'
        ? HttpResponse.json(ANALYSIS_STATUSES)
        : HttpResponse.json([]),
    ),
    http.put<{ reportId: string; evidenceId: string }, AnalysisBody, Evidence | FieldErrors>(
      '/api/v1/report/:reportId/evidence/:evidenceId/analysis',
      async ({ params, request }) => {
        const body = await request.json();
        const evidenceId = Number(params.evidenceId);
        puts.push({ evidenceId, body });
        if (options.analysisErrors) return HttpResponse.json(options.analysisErrors, { status: 400 });
        const saved = current.evidence.find((e) => e.id === evidenceId);
        if (!saved) return HttpResponse.json({ detail: ['Not found.'] }, { status: 404 });
        const updated: Evidence = { ...saved, analysisStatus: body.analysisStatus, analysis: body.analysis };
        current = { ...current, evidence: current.evidence.map((e) => (e.id === evidenceId ? updated : e)) };
        return HttpResponse.json(updated);
      },
    ),
  );
  return { puts };
}

/**
 * A paged report list at `path` whose answer is chosen per request; every request's query is
 * recorded so tests can check what the screen asked for.
 */
export function serveReportList<T extends ReportRow>(
  server: SetupServerApi,
  path: '/api/v1/report' | '/api/v1/report/learner',
  answer: (query: URLSearchParams) => PagedResult<T> | Response | Promise<PagedResult<T> | Response>,
) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(path, async ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const result = await answer(query);
      return result instanceof Response ? result : HttpResponse.json<PagedResult<T>>(result);
    }),
  );
  return { queries };
}

export const invalidPage = () => HttpResponse.json({ detail: 'Invalid page.' }, { status: 404 });
