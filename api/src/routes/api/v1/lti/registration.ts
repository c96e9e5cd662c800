import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LtiRegistrationOrganisationParams,
  LtiRegistrationToken,
  LtiToolConfiguration,
} from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { toolConfiguration } from '../../../../lti/dynamic-registration';
import { currentUser } from '../../../../plugins/app/auth';
import { createRegistrationToken } from '../../../../services/lti/dynamic-registration';

const tags = ['lti'];

/**
 * Registration URLs and the tool's own configuration (issue #10 point 1), for global
 * administrators only, as the platform CRUD is: a registration decides which organisation a
 * platform's users join, and an organisation administrator who could register a platform could
 * bring in any platform's users as their organisation's. No narrower object scope exists: a
 * global administrator reaches every organisation, and an unknown one is a 404.
 */
const config = { permissions: ['global.create_org'] } as const;

export const ltiRegistrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { portalUrl } = app.config;

  app.post(
    '/organisation/:id/lti/registration-token',
    {
      config,
      schema: {
        tags,
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

  app.get(
    '/lti/tool',
    {
      config,
      schema: {
        tags,
        summary: "The tool's URLs for registering it in a learning platform by hand",
        response: { 200: LtiToolConfiguration, ...errorResponses },
      },
    },
    async () => toolConfiguration(portalUrl),
  );
};
