import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EntitlementModes, UserIdParams, ProductIdParams } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { isSelf } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';

const Params = Type.Composite([UserIdParams, ProductIdParams]);

/** Registered under /api/v1/user beside the user routes. */
export const entitlementModeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { entitlements } = app.repos;

  app.get(
    '/:id/entitlement-mode/:productId',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags: ['user'],
        summary: 'The modes (VR, Desktop) the user may launch the product in',
        params: Params,
        response: { 200: EntitlementModes, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, productId } = request.params;
      if (!isSelf(user, id)) throw notFound();
      const modes = await entitlements.modesFor(user, productId);
      // Without a seat the product may still be visible (the launch buttons are then disabled);
      // a product the user cannot see at all is not found, as in the catalogue routes.
      if (modes.length === 0 && !(await entitlements.productIdsFor(user)).includes(productId)) {
        throw notFound();
      }
      return { modes };
    },
  );
};

export default entitlementModeRoutes;
