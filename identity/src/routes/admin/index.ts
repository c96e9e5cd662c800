import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';

import type { IdentityContext } from '../../context';
import { allowOnly, type MethodHandlers } from '../../http/methods';
import { acceptJson } from './body';
import { type AdminRole, authorize, type Caller, createAuthenticator } from './caller';
import { AdminError, answerAdminError } from './errors';
import { executeActionsEmail } from './execute-actions-email';
import { addFederatedIdentity, listFederatedIdentities, removeFederatedIdentity } from './federated-identity';
import { representation } from './representation';
import { matcher } from './search';
import { type AdminRequest, createUser, existingUser, listUsers, searchQuery, updateUser, type UserParams } from './users';

/** Keycloak's admin path for a realm path: `/realms/main` → `/admin/realms/main`. */
export function adminPathFor(mountPath: string): string {
  return mountPath.replace(/\/realms\/([^/]+)$/, '/admin/realms/$1');
}

/** The role each handled method of the admin API needs: reads view-users, writes manage-users. */
const ROLE_OF: Partial<Record<HTTPMethods, AdminRole>> = { GET: 'view-users', POST: 'manage-users', PUT: 'manage-users', DELETE: 'manage-users' };

declare module 'fastify' {
  interface FastifyContextConfig {
    adminRole?: AdminRole;
  }
  interface FastifyRequest {
    caller?: Caller;
  }
}

/**
 * The subset of Keycloak's Admin REST API the portal uses, as @keycloak/keycloak-admin-client 26
 * calls it: users (create, find, count, get, update, delete, logout), their federated identity links and
 * the execute-actions e-mail. Callers present an access token of this realm holding realm-management's view-users
 * (reads) or manage-users (writes): in practice the `portal-api` service client's
 * client-credentials token. Anything else is 401 (no or bad token) or 403 (no such role), before
 * a body is read or a method refused (405).
 */
export async function adminRoutes(app: FastifyInstance, context: IdentityContext) {
  const { users, sessionStore, logger, adminPath } = context;
  const authenticate = createAuthenticator(context);
  const usersPath = `${adminPath}/users`;
  acceptJson(app);
  app.decorateRequest('caller', undefined);
  app.setErrorHandler(answerAdminError);
  app.addHook('onRequest', async (request) => {
    request.caller = await authenticate(request);
    const role = request.routeOptions.config.adminRole;
    if (role) authorize(request.caller, role);
  });

  const resource = (url: string, handlers: MethodHandlers) =>
    allowOnly(app, url, handlers, {
      routeOptions: (method) => ({ config: { adminRole: ROLE_OF[method] } }),
      refuse: async (allow) => {
        throw new AdminError(405, { error: 'HTTP 405 Method Not Allowed' }, allow);
      },
    });
  const asAdmin = (handler: (request: AdminRequest, reply: FastifyReply) => Promise<unknown>) => (request: FastifyRequest, reply: FastifyReply) =>
    handler(request as AdminRequest, reply);
  const idOf = (request: FastifyRequest) => (request.params as UserParams).id;

  resource(usersPath, {
    GET: async (request) => listUsers(context, searchQuery(request)),
    POST: asAdmin((request, reply) => createUser(context, request, reply)),
  });
  resource(`${usersPath}/count`, {
    GET: async (request) => users.all().filter(matcher(searchQuery(request))).length,
  });
  resource(`${usersPath}/:id`, {
    GET: async (request) => representation(existingUser(users, idOf(request))),
    PUT: asAdmin(async (request, reply) => {
      updateUser(context, request);
      return reply.code(204).send();
    }),
    DELETE: asAdmin(async (request, reply) => {
      const id = idOf(request);
      if (!users.delete(id)) throw new AdminError(404, { error: 'User not found' });
      sessionStore.forgetAccount(id);
      logger.info({ sub: id, by: request.caller.clientId }, 'user deleted');
      return reply.code(204).send();
    }),
  });
  resource(`${usersPath}/:id/execute-actions-email`, {
    PUT: asAdmin((request, reply) => executeActionsEmail(context, request, reply)),
  });
  resource(`${usersPath}/:id/federated-identity`, {
    GET: asAdmin(async (request) => listFederatedIdentities(context, request)),
  });
  resource(`${usersPath}/:id/federated-identity/:provider`, {
    POST: asAdmin(async (request, reply) => addFederatedIdentity(context, request, reply)),
    DELETE: asAdmin(async (request, reply) => removeFederatedIdentity(context, request, reply)),
  });
  resource(`${usersPath}/:id/logout`, {
    POST: async (request, reply) => {
      const id = idOf(request);
      existingUser(users, id);
      sessionStore.forgetAccount(id);
      return reply.code(204).send();
    },
  });
  const unknown = async () => {
    throw new AdminError(404, { error: 'Unable to find matching target resource method' });
  };
  app.all(adminPath, unknown);
  app.all(`${adminPath}/*`, unknown);
}
