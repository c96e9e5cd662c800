import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Organisation,
  OrganisationIdParams,
  OrganisationInput,
  OrganisationListQuery,
  Paged,
} from '@portal/contract';
import { notFound, orNotFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import type { AuthUser } from '../../../../repositories/user-repository';

const tags = ['organisation'];

/**
 * Global administrators reach every organisation; anyone else only their own, and another id
 * answers 404 as if it did not exist, so organisation ids cannot be probed.
 */
export function assertOrganisationInScope(user: AuthUser, organisationId: number): void {
  if (!isGlobalAdmin(user) && user.organisationId !== organisationId) throw notFound();
}

export const organisationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { organisations } = app.repos;

  app.get(
    '',
    {
      config: { permissions: ['global.view_org'] },
      schema: {
        tags,
        summary: 'Organisations: all for global administrators, otherwise only the own one',
        querystring: OrganisationListQuery,
        response: { 200: Paged(Organisation), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return organisations.list(
        request.query,
        isGlobalAdmin(user) ? undefined : user.organisationId,
      );
    },
  );

  app.post(
    '',
    {
      config: { permissions: ['global.create_org'] },
      schema: {
        tags,
        summary: 'Create an organisation',
        body: OrganisationInput,
        response: { 201: Organisation, ...errorResponses },
      },
    },
    async (request, reply) => {
      const created = await organisations.create(request.body, currentUser(request));
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:id',
    {
      config: { permissions: ['global.view_org'] },
      schema: {
        tags,
        summary: 'One organisation',
        params: OrganisationIdParams,
        response: { 200: Organisation, ...errorResponses },
      },
    },
    async (request) => {
      assertOrganisationInScope(currentUser(request), request.params.id);
      return orNotFound(await organisations.find(request.params.id));
    },
  );

  app.put(
    '/:id',
    {
      config: { permissions: ['global.update_org'] },
      schema: {
        tags,
        summary: 'Update an organisation (isActive: global administrators only)',
        params: OrganisationIdParams,
        body: OrganisationInput,
        response: { 200: Organisation, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertOrganisationInScope(user, request.params.id);
      const updated = await organisations.update(
        request.params.id,
        request.body,
        user,
        isGlobalAdmin(user),
      );
      // Its members' next request must see a (de)activation, or a new name, at once: the auth
      // hook reuses loaded users for a few seconds.
      app.repos.users.forgetAll();
      return orNotFound(updated);
    },
  );
};
