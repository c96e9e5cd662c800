import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ProductCategoryList, ProductIdParams, ProductList } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { productSessionRoutes } from './session';

const tags = ['product'];

export const productRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { entitlements, products } = app.repos;

  app.get(
    '',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: "The products the user's organisation is licensed for, in catalogue order",
        response: { 200: ProductList, ...errorResponses },
      },
    },
    async (request) => products.listByIds(await entitlements.productIdsFor(currentUser(request))),
  );

  app.get(
    '/:productId/category',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: "The product's category tree; leaves carry the simulation configuration",
        params: ProductIdParams,
        response: { 200: ProductCategoryList, ...errorResponses },
      },
    },
    async (request) => {
      const { productId } = request.params;
      const visible = await entitlements.productIdsFor(currentUser(request));
      if (!visible.includes(productId)) throw notFound();
      return products.categoryTree(productId);
    },
  );

  await app.register(productSessionRoutes);
};
