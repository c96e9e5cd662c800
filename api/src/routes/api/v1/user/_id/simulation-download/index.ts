import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DownloadGroupList, UserIdParams } from '@portal/contract';
import { notFound } from '../../../../../../lib/http-errors';
import { isSelf } from '../../../../../../lib/object-access';
import { errorResponses } from '../../../../../../lib/route-schemas';
import { currentUser } from '../../../../../../plugins/app/auth';

/** `/api/v1/user/{id}/simulation-download`: the installers a user may download. */
const simulationDownloadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { downloads, entitlements } = app.repos;

  app.get(
    '',
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

export default simulationDownloadRoutes;
