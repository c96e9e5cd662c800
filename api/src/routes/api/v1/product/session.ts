import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CloseSessionResult,
  CreatedSession,
  CreateSessionBody,
  Detail,
  ProductIdParams,
  SessionParams,
  SessionStatus,
  type FieldErrors,
} from '@portal/contract';
import { badRequest, detailError, notFound, orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { hashSessionToken, newSessionToken } from '../../../../lib/session-token';
import { currentUser } from '../../../../plugins/app/auth';
import { assertOwnRecentLaunch } from '../../../../lti/session-launch';

const tags = ['session'];

export const tooManyOpenSessions = (max: number) =>
  `You already have ${max} simulation sessions open. Finish one, or try again later.`;

/** Learner-side session calls: create, poll, complete, close. */
export const productSessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { configurations, entitlements, sessions } = app.repos;
  const { maxOpenSessionsPerUser, sessionTokenMaxAgeSeconds, sessionTokenIdleSeconds } = app.config;

  app.post(
    '/:productId/session',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: 'Start a simulation session; the token is answered only here',
        params: ProductIdParams,
        body: CreateSessionBody,
        response: { 201: CreatedSession, ...errorResponses, 409: Detail },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { productId } = request.params;
      const { configuration, mode, ltiLaunchId = null, categoryId = null } = request.body;

      const modes = await entitlements.modesFor(user, productId);
      if (modes.length === 0 && !(await entitlements.productIdsFor(user)).includes(productId)) {
        throw notFound();
      }
      const errors: FieldErrors = {};
      if (!modes.includes(mode)) {
        errors.mode = [`Your licence does not include this product in ${mode} mode.`];
      }
      // The launch starts a configuration record of the product (by its name, or by the key of
      // the catalogue leaf that starts it); a category, when given, must be one of those leaves.
      const resolved = await configurations.resolveLaunch(productId, configuration);
      const leafIds = resolved?.leafIds ?? [];
      if (!resolved) {
        errors.configuration = [`"${configuration}" is not a simulation of this product.`];
      } else if (categoryId !== null && !leafIds.includes(categoryId)) {
        errors.categoryId = ['The category does not start this configuration.'];
      }
      if (Object.keys(errors).length > 0) throw badRequest(errors);
      await assertOwnRecentLaunch(app.db, ltiLaunchId, user.id);

      const token = newSessionToken();
      const created = await sessions.create(
        {
          userId: user.id,
        productId,
        // One leaf per configuration names the report even when the client sent no category.
          categoryId: categoryId ?? (leafIds.length === 1 ? (leafIds[0] ?? null) : null),
          configuration,
          configurationId: resolved?.id ?? null,
          mode,
          ltiLaunchId,
          tokenHash: hashSessionToken(token),
        },
        {
          maxOpen: maxOpenSessionsPerUser,
          maxAgeSeconds: sessionTokenMaxAgeSeconds,
          idleSeconds: sessionTokenIdleSeconds,
        },
      );
      if (!created.ok) throw detailError(409, tooManyOpenSessions(maxOpenSessionsPerUser));
      return reply.code(201).send({ token, uuid: created.uuid });
    },
  );

  app.get(
    '/:productId/session/:uuid/status',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: "The session's status (polled by the launch screen)",
        params: SessionParams,
        response: { 200: SessionStatus, ...errorResponses },
      },
    },
    async (request) => {
      const { productId, uuid } = request.params;
      return orNotFound(await sessions.status({ uuid, productId, userId: currentUser(request).id }));
    },
  );

  app.post(
    '/:productId/session/:uuid/complete',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: 'Mark a session the simulator did not finish as complete',
        params: SessionParams,
        response: { 200: SessionStatus, ...errorResponses, 409: Detail },
      },
    },
    async (request) => {
      const { productId, uuid } = request.params;
      const result = await sessions.completeByOwner({
        uuid,
        productId,
        userId: currentUser(request).id,
      });
      if (result.ok) return result.value;
      if (result.status === null) throw notFound();
      throw detailError(409, `A ${result.status.replace('_', ' ')} session cannot be completed.`);
    },
  );

  app.post(
    '/:productId/session/:uuid/close',
    {
      config: { permissions: ['global.access_sims'] },
      schema: {
        tags,
        summary: 'Close a session; says where its report can be found',
        params: SessionParams,
        response: { 200: CloseSessionResult, ...errorResponses },
      },
    },
    async (request) => {
      const { productId, uuid } = request.params;
      return orNotFound(
        await sessions.close({ uuid, productId, userId: currentUser(request).id }),
      );
    },
  );
};
