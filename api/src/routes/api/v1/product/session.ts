import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CloseSessionResult,
  CreatedSession,
  CreateSessionBody,
  Detail,
  ProductIdParams,
  SessionParams,
  SessionStatus,
} from '@portal/contract';
import { detailError, notFound, orNotFound } from '../../../../lib/http-errors';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { createSession } from '../../../../services/sessions/create-session';
import {
  closeSession,
  completeSessionByOwner,
  pollSessionStatus,
} from '../../../../services/sessions/session-changes';

const tags = ['session'];

export { tooManyOpenSessions } from '../../../../services/sessions/create-session';

/** Learner-side session calls: create, poll, complete, close. */
export const productSessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
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
      const created = await createSession(
        app,
        currentUser(request),
        request.params.productId,
        request.body,
      );
      return reply.code(201).send(created);
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
      return orNotFound(
        await pollSessionStatus(app, { uuid, productId, userId: currentUser(request).id }),
      );
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
      const result = await completeSessionByOwner(app, {
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
        await closeSession(app, { uuid, productId, userId: currentUser(request).id }),
      );
    },
  );
};
