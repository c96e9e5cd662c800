import type { FastifyReply } from 'fastify';

import type { FederatedIdentity } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { jsonOf } from './body';
import { AdminError, notFound } from './errors';
import { isObject } from './representation';
import { existingUser, type AdminRequest, type UserParams } from './users';

export interface FederatedIdentityParams extends UserParams {
  provider: string;
}

const MAX_LENGTH = 255;

/** Keycloak's `GET /users/{id}/federated-identity`: the account's links, one per provider. */
export function listFederatedIdentities({ users }: IdentityContext, request: AdminRequest): FederatedIdentity[] {
  const user = existingUser(users, (request.params as UserParams).id);
  return (user.federatedIdentities ?? []).map(({ identityProvider, userId, userName }) => ({ identityProvider, userId, userName }));
}

function linkOf(body: unknown, provider: string): FederatedIdentity {
  if (!isObject(body)) throw new AdminError(400, { errorMessage: 'Expected a FederatedIdentityRepresentation.' });
  const { userId, userName } = body;
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > MAX_LENGTH) {
    throw new AdminError(400, { field: 'userId', errorMessage: 'error-user-attribute-required', params: ['userId'] });
  }
  if (userName !== undefined && userName !== null && (typeof userName !== 'string' || userName.length > MAX_LENGTH)) {
    throw new AdminError(400, { field: 'userName', errorMessage: 'error-invalid-value', params: ['userName'] });
  }
  return { identityProvider: provider, userId, userName: typeof userName === 'string' ? userName : userId };
}

/**
 * Keycloak's `POST /users/{id}/federated-identity/{provider}` (UserResource.addFederatedIdentity):
 * 204, 404 for an unknown user or provider, 409 when the user is already linked with the provider
 * or the identity belongs to another account (Keycloak's unique constraint).
 */
export function addFederatedIdentity(context: IdentityContext, request: AdminRequest, reply: FastifyReply) {
  const { id, provider } = request.params as FederatedIdentityParams;
  existingUser(context.users, id);
  if (!context.identityProviders.some((idp) => idp.alias === provider)) {
    throw new AdminError(404, { error: 'Identity Provider not found' });
  }
  const link = linkOf(jsonOf(request), provider);
  const result = context.users.addFederatedIdentity(id, link);
  if (result === 'user_not_found') throw notFound();
  if (result === 'already_linked') throw new AdminError(409, { errorMessage: 'User is already linked with provider' });
  if (result === 'taken') throw new AdminError(409, { errorMessage: 'The identity is already linked to another user' });
  context.logger.info({ sub: id, identityProvider: provider, by: request.caller.clientId }, 'federated identity linked');
  return reply.code(204).send();
}

/** Keycloak's `DELETE /users/{id}/federated-identity/{provider}`: 204, or 404 "Link not found". */
export function removeFederatedIdentity(context: IdentityContext, request: AdminRequest, reply: FastifyReply) {
  const { id, provider } = request.params as FederatedIdentityParams;
  existingUser(context.users, id);
  if (!context.users.removeFederatedIdentity(id, provider)) throw new AdminError(404, { error: 'Link not found' });
  context.logger.info({ sub: id, identityProvider: provider, by: request.caller.clientId }, 'federated identity unlinked');
  return reply.code(204).send();
}
