import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ProductConfigurationSchema,
  ProductConfigurationSchemaInput,
  ProductParams,
} from '@portal/contract';
import { orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { replaceConfigurationSchema } from '../../../../services/configurations/replace-configuration-schema';

const tags = ['product-configuration'];

/**
 * A product's configuration JSON Schema, under `/api/v1/product/{id}/configuration-schema`:
 * global administrators read and replace it (`global.manage_validation_schema`). Products are
 * global: no organisation scope; an unknown product is 404. Configurations saved before keep
 * their files; the new schema applies to the next save.
 */
export const productConfigurationSchemaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { configurations } = app.repos;

  app.get(
    '/:id/configuration-schema',
    {
      config: { permissions: ['global.manage_validation_schema'] },
      schema: {
        tags,
        summary: "The product's configuration JSON Schema",
        params: ProductParams,
        response: { 200: ProductConfigurationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const found = orNotFound(await configurations.product(request.params.id));
      return { product: found.id, schema: found.schema };
    },
  );

  app.put(
    '/:id/configuration-schema',
    {
      config: { permissions: ['global.manage_validation_schema'] },
      schema: {
        tags,
        summary: "Replace the product's configuration JSON Schema",
        description:
          'The schema must be a JSON Schema (draft-07 meta-schema) that ajv can compile (400 on ' +
          '`schema`, each message starting with the JSON path). Audited (entity `product`).',
        params: ProductParams,
        body: ProductConfigurationSchemaInput,
        response: { 200: ProductConfigurationSchema, ...errorResponses },
      },
    },
    async (request) =>
      replaceConfigurationSchema(app, request.params.id, request.body.schema, currentUser(request)),
  );
};
