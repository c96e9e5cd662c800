import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LtiRegistrationOrganisationParams, LtiRegistrationToken } from '@portal/contract';
import { notFound } from '../../../../../../../lib/http-errors';
import { errorResponses } from '../../../../../../../lib/route-schemas';
import { currentUser } from '../../../../../../../plugins/app/auth';
import { createRegistrationToken } from '../../../../../../../services/lti/dynamic-registration';

/**
 * A registration URL (issue #10 point 1), for global administrators only, as the platform CRUD
 * is: a registration decides which organisation a platform's users join, and an organisation
 * administrator who could register a platform could bring in any platform's users as their
 * organisation's. No narrower object scope exists: a global administrator reaches every
 * organisation, and an unknown one is a 404.
 */
const ltiRegistrationTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { portalUrl } = app.config;

  app.post(
    '',
    {
      config: { permissions: ['global.create_org'] },
      schema: {
        tags: ['lti'],
        summary:
          'A one-time LTI Dynamic Registration URL (24 h) that registers a platform for the organisation',
        params: LtiRegistrationOrganisationParams,
        response: { 201: LtiRegistrationToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      const made = await createRegistrationToken(app, request.params.id, currentUser(request));
      if (!made) throw notFound();
      const url = new URL(`${portalUrl}/api/lti/register`);
      url.searchParams.set('portal_token', made.token);
      return reply.code(201).send({ url: url.toString(), expiresAt: made.expiresAt });
    },
  );
};

export default ltiRegistrationTokenRoutes;
