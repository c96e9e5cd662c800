import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  Forbidden,
  FieldErrors,
  LtiDeepLinkAnswer,
  LtiDeepLinkInput,
  LtiDeepLinkParams,
  LtiDeepLinkRequest,
} from '@portal/contract';
import { createDeepLinking } from '../../../../../lti/deep-linking';
import { createToolKeys } from '../../../../../lti/tool-keys';
import { errorResponses } from '../../../../../lib/route-schemas';
import { currentUser } from '../../../../../plugins/app/auth';

const tags = ['lti'];

/**
 * The deep linking picker's API (issue #10 point 5). docs/requirements.md#permissions has no permission of its own for
 * adding content to a course; `global.view_org_reports` is the one every educator and every
 * administrator holds and no learner does. Object scope: the launch must be the caller's own
 * (someone else's is 404), and what may be linked is what the launch's platform's organisation
 * is licensed for — never the caller's wider view (a global administrator's every product).
 */
const config = { permissions: ['global.view_org_reports'] } as const;

/** A refusal of the launch itself (learner role: 403, answered: 409) names the field too. */
const responses = {
  ...errorResponses,
  403: Type.Union([Forbidden, FieldErrors]),
  409: FieldErrors,
} as const;

const ltiDeepLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const toolKeys = createToolKeys(app.db);
  await toolKeys.ensure();
  const deepLinking = createDeepLinking(app.db, toolKeys, app.config.portalUrl);

  app.get(
    '/:launchId',
    {
      config,
      schema: {
        tags,
        summary: 'An open deep linking request of the caller: platform, accepted types, products',
        params: LtiDeepLinkParams,
        response: { 200: LtiDeepLinkRequest, ...responses },
      },
    },
    async (request) => deepLinking.describe(request.params.launchId, currentUser(request)),
  );

  app.post(
    '/:launchId',
    {
      config,
      schema: {
        tags,
        summary: 'Answer the deep linking request: a signed LtiDeepLinkingResponse (single use)',
        params: LtiDeepLinkParams,
        body: LtiDeepLinkInput,
        response: { 200: LtiDeepLinkAnswer, ...responses },
      },
    },
    async (request) =>
      deepLinking.answer(request.params.launchId, request.body, currentUser(request)),
  );
};

export default ltiDeepLinkRoutes;
