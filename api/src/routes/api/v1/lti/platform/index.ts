import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  LtiPlatform,
  LtiPlatformIdParams,
  LtiPlatformInput,
  LtiPlatformListQuery,
  Paged,
} from '@portal/contract';
import { notFound, orNotFound } from '../../../../../lib/http-errors';
import { errorResponses } from '../../../../../lib/route-schemas';
import { currentUser } from '../../../../../plugins/app/auth';
import {
  createLtiPlatform,
  removeLtiPlatform,
  updateLtiPlatform,
} from '../../../../../services/lti/platforms';

const tags = ['lti'];

/**
 * Learning-platform registrations (issue #10 point 1). Only global administrators hold
 * `global.create_org`, and a registration decides which organisation a platform's users join, so
 * no one else reads or writes them; there is no narrower object scope to check.
 */
const config = { permissions: ['global.create_org'] } as const;

const ltiPlatformRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const platforms = app.repos.lti;

  app.get(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'Registered learning platforms (paged; filter issuer/client id; organisation)',
        querystring: LtiPlatformListQuery,
        response: { 200: Paged(LtiPlatform), ...errorResponses },
      },
    },
    async (request) => platforms.list(request.query),
  );

  app.post(
    '',
    {
      config,
      schema: {
        tags,
        summary: 'Register a learning platform',
        body: LtiPlatformInput,
        response: { 201: LtiPlatform, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createLtiPlatform(app, request.body, currentUser(request))),
  );

  app.get(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One learning platform registration',
        params: LtiPlatformIdParams,
        response: { 200: LtiPlatform, ...errorResponses },
      },
    },
    async (request) => orNotFound(await platforms.find(request.params.id)),
  );

  app.put(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change a learning platform registration',
        params: LtiPlatformIdParams,
        body: LtiPlatformInput,
        response: { 200: LtiPlatform, ...errorResponses },
      },
    },
    async (request) =>
      orNotFound(
        await updateLtiPlatform(app, request.params.id, request.body, currentUser(request)),
      ),
  );

  app.delete(
    '/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Remove a learning platform registration with its launches',
        params: LtiPlatformIdParams,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!(await removeLtiPlatform(app, request.params.id, currentUser(request))))
        throw notFound();
      return reply.code(204).send();
    },
  );
};

export default ltiPlatformRoutes;
