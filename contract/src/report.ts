import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4, PagedQuery } from './common';
import { Evidence } from './evidence';
import { FeedbackComment } from './feedback';
import { ReportGrade } from './marking';

export const ANALYSIS_SUMMARIES = ['completed', 'partial', 'not_started'] as const;
export const AnalysisStatusSummary = Type.Union(ANALYSIS_SUMMARIES.map((s) => Type.Literal(s)));
export type AnalysisStatusSummary = Static<typeof AnalysisStatusSummary>;

/**
 * Columns a report list may be ordered by (`ordering=-id` is the default); the analysis summary
 * orders not_started, partial, completed.
 */
export const REPORT_ORDERING_FIELDS = [
  'id',
  'simulation',
  'session',
  'recorded',
  'user',
  'analysisStatusSummary',
] as const;
export const ReportListQuery = PagedQuery;
export type ReportListQuery = Static<typeof ReportListQuery>;

/**
 * GET /report/learner: the report list query, optionally narrowed to one learner by id. The
 * `filter` text search matches names, so "Lena Learner" also finds "Lena Learner2"; a link to one
 * learner's reports (the insight screen's) asks by id. The caller's scope still applies: a learner
 * outside it lists nothing.
 */
export const LearnerReportListQuery = Type.Object(
  { ...PagedQuery.properties, learnerId: Type.Optional(Type.String({ format: 'uuid' })) },
  { additionalProperties: false },
);
export type LearnerReportListQuery = Static<typeof LearnerReportListQuery>;

export const ReportRow = Type.Object({
  id: Type.Integer(),
  /** The session uuid; report routes use it (/report/{uuid}). */
  uuid: Type.String(),
  /** Product name. */
  simulation: Type.String(),
  /** What was simulated: the launched category's display name (or the configuration). */
  session: Type.String(),
  /** ISO date-time the session completed. */
  recorded: Type.String({ format: 'date-time' }),
  analysisStatusSummary: AnalysisStatusSummary,
  hasReportDetails: Type.Boolean(),
});
export type ReportRow = Static<typeof ReportRow>;

export const LearnerReportRow = Type.Composite([ReportRow, Type.Object({ user: Type.String() })]);
export type LearnerReportRow = Static<typeof LearnerReportRow>;

export const ReportIdParams = Type.Object({ reportId: Type.String({ format: 'uuid' }) });
export type ReportIdParams = Static<typeof ReportIdParams>;
export const EvidenceParams = Type.Object({
  reportId: Type.String({ format: 'uuid' }),
  evidenceId: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
});
export type EvidenceParams = Static<typeof EvidenceParams>;

export const ReportDetails = Type.Object({
  summary: Type.String(),
  score: Type.Optional(Type.Integer()),
  durationSeconds: Type.Optional(Type.Integer()),
});
export type ReportDetails = Static<typeof ReportDetails>;

export const Report = Type.Object({
  id: Type.Integer(),
  uuid: Type.String(),
  simulation: Type.String(),
  /** Breadcrumb label of /report/{reportId}. */
  description: Type.String(),
  recorded: Type.String({ format: 'date-time' }),
  mode: Type.String(),
  userName: Type.String(),
  userEmail: Type.String(),
  /** Only the owner may analyse; also picks the breadcrumb root ('your reports'/'learner reports'). */
  isOwner: Type.Boolean(),
  analysisStatusSummary: AnalysisStatusSummary,
  reportDetails: Type.Union([ReportDetails, Type.Null()]),
  grade: ReportGrade,
  /** An educator's comment on the whole report (issue #23 point 3); null: none. */
  feedback: Type.Union([FeedbackComment, Type.Null()]),
  /** Whether the caller may comment and override marks (an educator of the learner's organisation). */
  canGiveFeedback: Type.Boolean(),
  evidence: Type.Array(Evidence),
});
export type Report = Static<typeof Report>;

/** Short-lived signed image URLs. */
export const ImageUrl = Type.Object({ id: Type.Integer(), url: Type.String() });
export type ImageUrl = Static<typeof ImageUrl>;
export const ImageUrlList = Type.Array(ImageUrl);
export const ImageBatchQuery = Type.Object(
  {
    id: Type.Array(Type.Integer({ minimum: 1, maximum: MAX_INT4 }), { minItems: 1, maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const ANALYSIS_MAX_LENGTH = 4000;
/** PUT /api/v1/report/{reportId}/evidence/{evidenceId}/analysis */
export const AnalysisBody = Type.Object(
  {
    analysisStatus: Type.Union([Type.Literal(22002), Type.Literal(22003)]),
    analysis: Type.String({ minLength: 1, maxLength: ANALYSIS_MAX_LENGTH }),
  },
  { additionalProperties: false },
);
export type AnalysisBody = Static<typeof AnalysisBody>;
