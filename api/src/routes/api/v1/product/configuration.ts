import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Paged,
  ProductConfiguration,
  ProductConfigurationInput,
  ProductConfigurationListQuery,
  ProductConfigurationParams,
  ProductParams,
} from '@portal/contract';
import { orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { saveConfiguration } from '../../../../services/configurations/save-configuration';

const tags = ['product-configuration'];

export { CONFIGURATION_MESSAGES } from '../../../../services/configurations/save-configuration';

/**
 * Product configurations (docs/requirements.md#data, #calls), under `/api/v1/product/{id}/configuration`: global
 * administrators' product management (`global.manage_sim_config`). Products are global, so there
 * is no organisation scope; an unknown product or another product's configuration is 404.
 */
export const productConfigurationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { configurations } = app.repos;

  app.get(
    '/:id/configuration',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: "The product's configurations (paged; filter: name; default ordering name)",
        params: ProductParams,
        querystring: ProductConfigurationListQuery,
        response: { 200: Paged(ProductConfiguration), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      orNotFound(await configurations.product(id));
      return configurations.list(id, request.query);
    },
  );

  app.post(
    '/:id/configuration',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: 'Create a configuration from uploaded files',
        description:
          "The config file is checked against the product's configuration schema here (400 on " +
          '`configFile`, each message starting with the JSON path); both files become `saved`.',
        params: ProductParams,
        body: ProductConfigurationInput,
        response: { 201: ProductConfiguration, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await saveConfiguration(app, currentUser(request), request.body, request.params.id, null),
        ),
  );

  app.get(
    '/:id/configuration/:configurationId',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: 'One configuration of the product',
        params: ProductConfigurationParams,
        response: { 200: ProductConfiguration, ...errorResponses },
      },
    },
    async (request) => {
      const { id, configurationId } = request.params;
      return orNotFound(await configurations.find(id, configurationId));
    },
  );

  app.put(
    '/:id/configuration/:configurationId',
    {
      config: { permissions: ['global.manage_sim_config'] },
      schema: {
        tags,
        summary: 'Replace a configuration (a new config file is checked against the schema)',
        params: ProductConfigurationParams,
        body: ProductConfigurationInput,
        response: { 200: ProductConfiguration, ...errorResponses },
      },
    },
    async (request) =>
      saveConfiguration(
        app,
        currentUser(request),
        request.body,
        request.params.id,
        request.params.configurationId,
      ),
  );
};
