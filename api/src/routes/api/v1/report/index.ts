import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AnalysisBody,
  Evidence,
  EvidenceParams,
  ImageBatchQuery,
  ImageUrl,
  ImageUrlList,
  LearnerReportRow,
  Paged,
  Report,
  ReportIdParams,
  ReportListQuery,
  ReportRow,
  type Permission,
} from '@portal/contract';
import { forbidden, notFound, orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import type { ReportScope } from '../../../../repositories/report-repository';
import type { AuthUser } from '../../../../repositories/user-repository';
import { saveAnalysis } from '../../../../services/reports/save-analysis';

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
        querystring: ReportListQuery,
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
};

export default reportRoutes;
