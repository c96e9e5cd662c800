import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CookiePreference, CurrentUser, UserIdParams, UserPreference } from '@portal/contract';
import { notFound, orNotFound } from '../../../../lib/http-errors';
import { isSelf } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { setCookiePreference } from '../../../../services/user/set-cookie-preference';
import { setPreference } from '../../../../services/user/set-preference';

const tags = ['user'];

/** The signed-in user's own routes under `/api/v1/user`: whoami and their preferences. */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repos;

  app.get(
    '/whoami',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        summary: 'The signed-in user with their permissions',
        response: { 200: CurrentUser, ...errorResponses },
      },
    },
    async (request) => currentUser(request),
  );

  app.get(
    '/:id/cookie-preference',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        params: UserIdParams,
        response: { 200: CookiePreference, ...errorResponses },
      },
    },
    async (request) => {
      if (!isSelf(currentUser(request), request.params.id)) throw notFound();
      return orNotFound(await users.getCookiePreference(currentUser(request).id));
    },
  );

  app.put(
    '/:id/cookie-preference',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        params: UserIdParams,
        body: CookiePreference,
        response: { 200: CookiePreference, ...errorResponses },
      },
    },
    async (request) => {
      if (!isSelf(currentUser(request), request.params.id)) throw notFound();
      return orNotFound(await setCookiePreference(app, currentUser(request).id, request.body));
    },
  );

  app.get(
    '/:id/preference',
    {
      config: { permissions: 'authenticated' },
      schema: { tags, params: UserIdParams, response: { 200: UserPreference, ...errorResponses } },
    },
    async (request) => {
      if (!isSelf(currentUser(request), request.params.id)) throw notFound();
      return orNotFound(await users.getPreference(currentUser(request).id));
    },
  );

  app.put(
    '/:id/preference',
    {
      config: { permissions: 'authenticated' },
      schema: {
        tags,
        params: UserIdParams,
        body: UserPreference,
        response: { 200: UserPreference, ...errorResponses },
      },
    },
    async (request) => {
      if (!isSelf(currentUser(request), request.params.id)) throw notFound();
      return orNotFound(await setPreference(app, currentUser(request).id, request.body));
    },
  );
};

export default userRoutes;
