import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DownloadGroupList, UserIdParams } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { isSelf } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';

/** Registered under /api/v1/user beside the user routes. */
export const simulationDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { downloads, entitlements } = app.repos;

  app.get(
    '/:id/simulation-download',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags: ['user'],
        summary: "Installers of the user's entitled products, grouped per product",
        params: UserIdParams,
        response: { 200: DownloadGroupList, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!isSelf(user, request.params.id)) throw notFound();
      return downloads.activeByProduct(await entitlements.productIdsFor(user));
    },
  );
};
