import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CatalogueLanguageQuery,
  ProductCategoryList,
  ProductIdParams,
  ProductList,
} from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { productConfigurationRoutes } from './configuration';
import { productConfigurationSchemaRoutes } from './configuration-schema';
import { productMarkingSchemeRoutes } from './marking-scheme';
import { productSessionRoutes } from './session';
import { productSimulationDownloadRoutes } from './simulation-download';

const tags = ['product'];

/**
 * The language catalogue texts are served in: the one the page asks for, else the user's stored
 * one. Any well-formed code is accepted; one without translations gets English from the query.
 */
function catalogueLanguage(requested: string | undefined, stored: string): string {
  return requested ?? stored;
}

const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { entitlements, products } = app.repos;

  app.get(
    '',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: "The products the user's organisation is licensed for, in catalogue order",
        querystring: CatalogueLanguageQuery,
        response: { 200: ProductList, ...errorResponses },
      },
    },
    async (request) =>
      products.listByIds(
        await entitlements.productIdsFor(currentUser(request)),
        catalogueLanguage(request.query.language, currentUser(request).language),
      ),
  );

  app.get(
    '/:productId/category',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: "The product's category tree; leaves carry the simulation configuration",
        params: ProductIdParams,
        querystring: CatalogueLanguageQuery,
        response: { 200: ProductCategoryList, ...errorResponses },
      },
    },
    async (request) => {
      const { productId } = request.params;
      const visible = await entitlements.productIdsFor(currentUser(request));
      if (!visible.includes(productId)) throw notFound();
      return products.categoryTree(
        productId,
        catalogueLanguage(request.query.language, currentUser(request).language),
      );
    },
  );

  await app.register(productSessionRoutes);
  await app.register(productConfigurationRoutes);
  await app.register(productConfigurationSchemaRoutes);
  await app.register(productMarkingSchemeRoutes);
  await app.register(productSimulationDownloadRoutes);
};

export default productRoutes;
