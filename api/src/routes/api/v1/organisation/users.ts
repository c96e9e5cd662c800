import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AdminUser, OrganisationIdParams, Paged, UserListQuery } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { assertOrganisationInScope } from '../../../../services/organisation/organisation-access';

/**
 * GET /api/v1/organisation/{id}/user (under /api/v1/organisation): the organisation's
 * users. Global administrators see any organisation's; others only their own (else 404).
 */
export const organisationUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:id/user',
    {
      config: { permissions: ['global.view_user'] },
      schema: {
        tags: ['user'],
        summary: "An organisation's users",
        params: OrganisationIdParams,
        querystring: UserListQuery,
        response: { 200: Paged(AdminUser), ...errorResponses },
      },
    },
    async (request) => {
      const { id } = request.params;
      assertOrganisationInScope(currentUser(request), id);
      if (!(await app.repos.organisations.exists(id))) throw notFound();
      return app.repos.users.listForOrganisation(id, request.query);
    },
  );
};

export default organisationUserRoutes;
