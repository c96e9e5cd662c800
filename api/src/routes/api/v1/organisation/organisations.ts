import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Organisation,
  OrganisationIdParams,
  OrganisationInput,
  OrganisationListQuery,
  Paged,
} from '@portal/contract';
import { orNotFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { createOrganisation } from '../../../../services/organisation/create-organisation';
import { assertOrganisationInScope } from '../../../../services/organisation/organisation-access';
import { updateOrganisation } from '../../../../services/organisation/update-organisation';

const tags = ['organisation'];

/** Organisations, under `/api/v1/organisation`. */
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
      const created = await createOrganisation(app, currentUser(request), request.body);
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
    async (request) =>
      orNotFound(
        await updateOrganisation(app, currentUser(request), request.params.id, request.body),
      ),
  );
};

export default organisationRoutes;
