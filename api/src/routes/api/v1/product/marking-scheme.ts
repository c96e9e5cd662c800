import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MarkingSchemeBody, ProductConfigurationParams } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { saveMarkingScheme } from '../../../../services/configurations/save-marking-scheme';

const tags = ['product-configuration'];

/**
 * A configuration's marking scheme (issue #23), under
 * `/api/v1/product/{id}/configuration/{configurationId}/marking-scheme`: global administrators'
 * product management (`global.manage_sim_config`), like the configuration itself; products are
 * global, so no organisation scope. Another product's configuration is 404.
 */
export const productMarkingSchemeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { configurations } = app.repos;

  app.get(
    '/:id/configuration/:configurationId/marking-scheme',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: "The configuration's marking scheme (null: its images are not marked)",
        params: ProductConfigurationParams,
        response: { 200: MarkingSchemeBody, ...errorResponses },
      },
    },
    async (request) => {
      const { id, configurationId } = request.params;
      const scheme = await configurations.markingScheme(id, configurationId);
      if (scheme === undefined) throw notFound();
      return { scheme };
    },
  );

  app.put(
    '/:id/configuration/:configurationId/marking-scheme',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: "Replace the configuration's marking scheme (null removes it)",
        description:
          'Checked against the MarkingScheme JSON Schema (400 naming the field, e.g. ' +
          '`scheme/criteria/kV/min`) and for limits that contradict each other (400 on ' +
          '`scheme.criteria.kV.max`…). Applies to images submitted afterwards. Audited (entity ' +
          '`product_configuration`).',
        params: ProductConfigurationParams,
        body: MarkingSchemeBody,
        response: { 200: MarkingSchemeBody, ...errorResponses },
      },
    },
    async (request) => {
      const { id, configurationId } = request.params;
      return saveMarkingScheme(app, currentUser(request), id, configurationId, request.body.scheme);
    },
  );
};
