import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Insight, InsightParams, InsightQuery } from '@portal/contract';
import { fieldError, notFound } from '../../../../../../lib/http-errors';
import { errorResponses } from '../../../../../../lib/route-schemas';
import { currentUser } from '../../../../../../plugins/app/auth';
import { createInsightRepository } from '../../../../../../repositories/insight-repository';
import { insightExportStream } from '../../../../../../services/insight/insight-export-copy';
import {
  INSIGHT_MESSAGES,
  insightFilter,
  weeksWithZeros,
} from '../../../../../../services/insight/insight-filter';
import { assertOrganisationInScope } from '../../../../../../services/organisation/organisation-access';

const tags = ['insight'];

/**
 * Cohort insight and its export (issue #23 points 4–5). Object scope: the caller's own
 * organisation, or any with global administration; another or an unknown organisation is a 404,
 * so ids cannot be probed. A `learner` outside the organisation is a 400 on the field rather than
 * an empty answer: the screen only offers the organisation's learners, so such an id is a mistake
 * worth naming.
 */
const insightRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const insight = createInsightRepository(app.db);

  async function filterOf(request: { params: InsightParams; query: InsightQuery }) {
    const { id } = request.params;
    if (!(await insight.organisationExists(id))) throw notFound();
    const filter = insightFilter(id, request.query);
    if (filter.learner && !(await insight.isMember(id, filter.learner))) {
      throw fieldError('learner', INSIGHT_MESSAGES.notALearner);
    }
    return filter;
  }

  app.get(
    '',
    {
      config: { permissions: ['global.view_org_reports'] },
      schema: {
        tags,
        summary: "An organisation's cohort insight: activity per week, projection and learner",
        params: InsightParams,
        querystring: InsightQuery,
        response: { 200: Insight, ...errorResponses },
      },
    },
    async (request) => {
      assertOrganisationInScope(currentUser(request), request.params.id);
      const filter = await filterOf(request);
      const { totals, weeks, projections, learners } = await insight.insight(filter);
      return {
        organisationId: filter.organisationId,
        from: filter.from,
        to: filter.to,
        totals,
        weeks: weeksWithZeros(filter.from, filter.to, weeks),
        projections,
        learners,
      };
    },
  );

  app.get(
    '/export.csv',
    {
      config: { permissions: ['global.view_org_reports', 'global.export_user_data'] },
      schema: {
        tags,
        summary: 'One CSV row per image of the insight filters (UTF-8 with BOM, formula-safe)',
        params: InsightParams,
        querystring: InsightQuery,
        produces: ['text/csv'],
        response: {
          200: Type.String({ description: 'text/csv; columns INSIGHT_EXPORT_COLUMNS' }),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      assertOrganisationInScope(currentUser(request), request.params.id);
      const filter = await filterOf(request);
      // Only digits and dates reach the name, so it needs no quoting beyond the quotes.
      const filename = `insight-${filter.organisationId}-${filter.from}-${filter.to}.csv`;
      // Opened before the answer is typed as CSV: if the database refuses, the error goes out as
      // the JSON problem it is, not as a reply that already claims to be a CSV file.
      const csv = await insightExportStream(app.db, filter);
      return (
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'no-store')
          // A stream is sent as it is (no serializer runs); the schema's string only documents it.
          .send(csv as unknown as string)
      );
    },
  );
};

export default insightRoutes;
