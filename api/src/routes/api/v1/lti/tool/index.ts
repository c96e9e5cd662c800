import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LtiToolConfiguration } from '@portal/contract';
import { errorResponses } from '../../../../../lib/route-schemas';
import { toolConfiguration } from '../../../../../lti/dynamic-registration';

/**
 * The tool's URLs for registering it by hand (issue #10 point 1); global administrators only,
 * as every other part of a platform's registration.
 */
const ltiToolRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { portalUrl } = app.config;

  app.get(
    '',
    {
      config: { permissions: ['global.create_org'] },
      schema: {
        tags: ['lti'],
        summary: "The tool's URLs for registering it in a learning platform by hand",
        response: { 200: LtiToolConfiguration, ...errorResponses },
      },
    },
    async () => toolConfiguration(portalUrl),
  );
};

export default ltiToolRoutes;
