import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnalysisBody,
  Detail,
  Evidence,
  EvidenceFeedbackBody,
  EvidenceParams,
  ImageBatchQuery,
  ImageUrl,
  ImageUrlList,
  LearnerReportListQuery,
  LearnerReportRow,
  Paged,
  Progress,
  Report,
  ReportFeedbackBody,
  ReportIdParams,
  ReportListQuery,
  ReportRow,
  type Permission,
} from '@portal/contract';
import { forbidden, notFound, orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { createInsightRepository } from '../../../../repositories/insight-repository';
import type { ReportScope } from '../../../../repositories/report-repository';
import type { AuthUser } from '../../../../repositories/user-repository';
import { saveAnalysis } from '../../../../services/reports/save-analysis';
import { releaseGrade } from '../../../../services/reports/release-grade';
import {
  saveEvidenceFeedback,
  saveReportFeedback,
} from '../../../../services/reports/save-feedback';

const tags = ['report'];
const VIEW_ANY_REPORT: readonly Permission[] = [
  'global.view_own_reports',
  'global.view_org_reports',
  'global.view_all_reports',
];
export const ONLY_OWNER_MAY_ANALYSE = 'Only the owner of the report may analyse its evidence.';

/** Whose reports the learner list shows; the route already made sure the caller holds one of these. */
function learnerScope(user: AuthUser): ReportScope | null {
  if (user.permissions.includes('global.view_all_reports')) return { kind: 'all' };
  if (user.organisationId === null) return null;
  return { kind: 'organisation', organisationId: user.organisationId };
}

const reportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { reports } = app.repos;

  const signedImageUrl = (image: { storageKey: string; mimeType: string }) =>
    app.storage.signedUrl(image.storageKey, { contentType: image.mimeType });

  app.get(
    '',
    {
      config: { permissions: ['global.view_own_reports'] },
      schema: {
        tags,
        summary: "The caller's own reports",
        querystring: ReportListQuery,
        response: { 200: Paged(ReportRow), ...errorResponses },
      },
    },
    async (request) => reports.listOwn(currentUser(request).id, request.query),
  );

  app.get(
    '/learner',
    {
      config: { permissions: ['global.view_org_reports', 'global.view_all_reports'] },
      schema: {
        tags,
        summary: "Learners' reports: the organisation's, or everyone's with view_all_reports",
        description:
          "`learnerId` narrows the list to one learner; a learner outside the caller's scope lists nothing.",
        querystring: LearnerReportListQuery,
        response: { 200: Paged(LearnerReportRow), ...errorResponses },
      },
    },
    async (request) => {
      const scope = learnerScope(currentUser(request));
      // Someone allowed organisation reports but in no organisation sees only their own.
      return reports.listLearners(
        scope ?? { kind: 'own', userId: currentUser(request).id },
        request.query,
      );
    },
  );

  // The learner's own trend per projection (issue #23 point 4): only the caller's sessions.
  app.get(
    '/progress',
    {
      config: { permissions: ['global.view_own_reports'] },
      schema: {
        tags,
        summary: "The caller's marks per projection over their reports, oldest first",
        response: { 200: Progress, ...errorResponses },
      },
    },
    async (request) => ({
      projections: await createInsightRepository(app.db).progress(currentUser(request).id),
    }),
  );

  app.get(
    '/:reportId',
    {
      config: { permissions: VIEW_ANY_REPORT },
      schema: {
        tags,
        summary: 'One report with its evidence',
        params: ReportIdParams,
        response: { 200: Report, ...errorResponses },
      },
    },
    async (request) =>
      orNotFound(await reports.findVisible(request.params.reportId, currentUser(request))),
  );

  app.get(
    '/:reportId/image/:evidenceId',
    {
      config: { permissions: VIEW_ANY_REPORT },
      schema: {
        tags,
        summary: "A short-lived signed URL of one evidence item's image",
        params: EvidenceParams,
        response: { 200: ImageUrl, ...errorResponses },
      },
    },
    async (request) => {
      const { reportId, evidenceId } = request.params;
      orNotFound(await reports.ownerIfVisible(reportId, currentUser(request)));
      const [image] = await reports.images(reportId, [evidenceId]);
      if (!image) throw notFound();
      return { id: image.id, url: await signedImageUrl(image) };
    },
  );

  app.get(
    '/:reportId/image',
    {
      config: { permissions: VIEW_ANY_REPORT },
      schema: {
        tags,
        summary: 'Short-lived signed URLs of several evidence images (?id=1&id=2)',
        params: ReportIdParams,
        querystring: ImageBatchQuery,
        response: { 200: ImageUrlList, ...errorResponses },
      },
    },
    async (request) => {
      const { reportId } = request.params;
      orNotFound(await reports.ownerIfVisible(reportId, currentUser(request)));
      const ids = [...new Set(request.query.id)];
      const images = await reports.images(reportId, ids);
      // All or nothing: an id of another report (or without an image) is not silently dropped.
      if (images.length !== ids.length) throw notFound();
      return Promise.all(
        images.map(async (image) => ({ id: image.id, url: await signedImageUrl(image) })),
      );
    },
  );

  app.put(
    '/:reportId/evidence/:evidenceId/analysis',
    {
      config: { permissions: ['global.view_own_reports'] },
      schema: {
        tags,
        summary: "The owner's analysis of one evidence item",
        params: EvidenceParams,
        body: AnalysisBody,
        response: { 200: Evidence, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { reportId, evidenceId } = request.params;
      const owner = orNotFound(await reports.ownerIfVisible(reportId, user));
      // docs/requirements.md#analysis: only the report's owner analyses; others who may read it are told so.
      if (owner.userId !== user.id) throw forbidden(ONLY_OWNER_MAY_ANALYSE);
      return orNotFound(await saveAnalysis(app, reportId, evidenceId, request.body));
    },
  );

  app.post(
    '/:reportId/release-grade',
    {
      // Object scope in the service: an educator (view_org_reports) of the learner's
      // organisation, never the learner; other organisations' reports are 404.
      config: { permissions: ['global.view_org_reports'] },
      schema: {
        tags,
        summary: "Release a grade held for an educator's review to the learning platform",
        description:
          'Only a report whose grade waits for review (its course or organisation releases ' +
          'grades after review): the computed score goes to the platform as FullyGraded. 403 ' +
          "for anyone but an educator of the learner's organisation, 409 when nothing waits. " +
          'Audited (entity `report`, action `release_grade`). Answers the report.',
        params: ReportIdParams,
        response: { 200: Report, ...errorResponses, 409: Detail },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { reportId } = request.params;
      await releaseGrade(app, user, reportId);
      return orNotFound(await reports.findVisible(reportId, user));
    },
  );

  // Educator feedback (issue #23 point 3). Object scope in the service: an educator
  // (view_org_reports) of the learner's organisation or a global administrator, never the
  // learner (403); reports the caller may not see are 404.
  const feedbackAccess: readonly Permission[] = ['global.view_org_reports'];
  const feedbackRules =
    "403 for anyone but an educator of the learner's organisation or a global administrator. " +
    'Audited (entity `report`, action `give_feedback`/`override_mark`); the learner is notified ' +
    'of new feedback. A grade already released to the learning platform is sent again with the ' +
    'feedback as its comment; one waiting for review sends it when released. Answers the report.';

  app.put(
    '/:reportId/evidence/:evidenceId/feedback',
    {
      config: { permissions: feedbackAccess },
      schema: {
        tags,
        summary: "An educator's comment on one image of a learner's report",
        description: `An empty comment clears it. ${feedbackRules}`,
        params: EvidenceParams,
        body: EvidenceFeedbackBody,
        response: { 200: Report, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { reportId, evidenceId } = request.params;
      await saveEvidenceFeedback(app, user, reportId, evidenceId, request.body);
      return orNotFound(await reports.findVisible(reportId, user));
    },
  );

  app.put(
    '/:reportId/feedback',
    {
      config: { permissions: feedbackAccess },
      schema: {
        tags,
        summary: "An educator's comment on a learner's report, and mark overrides",
        description:
          'An empty comment clears it. Each override gives one criterion of one image ' +
          "(`evidenceId`, `criterion`) a new mark between 0 and the criterion's maximum, with a " +
          "reason; a mark equal to the marking's own removes the override; criteria not named " +
          "keep theirs. The image's and the session's scores are derived again as marking does. " +
          feedbackRules,
        params: ReportIdParams,
        body: ReportFeedbackBody,
        response: { 200: Report, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { reportId } = request.params;
      await saveReportFeedback(app, user, reportId, request.body);
      return orNotFound(await reports.findVisible(reportId, user));
    },
  );
};

export default reportRoutes;
