import type { FastifyReply, FastifyRequest } from 'fastify';

import { checkPassword } from '../../accounts/password-policy';
import { type NewUser, normalizeEmail, UPDATE_PASSWORD, UserConflictError, type UserRecord, type UserStore } from '../../accounts/users';
import type { IdentityContext } from '../../context';
import { jsonOf } from './body';
import type { Caller } from './caller';
import { AdminError, notFound } from './errors';
import { isObject, readRepresentation, representation, usernameOf } from './representation';
import { matcher, nonNegativeInteger, type SearchQuery } from './search';

const DEFAULT_PAGE_SIZE = 100;

export interface UserParams {
  id: string;
}

export type AdminRequest = FastifyRequest & { caller: Caller };

export function existingUser(users: UserStore, id: string): UserRecord {
  const user = users.get(id);
  if (!user) throw notFound();
  return user;
}

/** The first value of each query parameter, as URLSearchParams.get reads it. */
export function searchQuery(request: FastifyRequest): SearchQuery {
  return Object.fromEntries(
    Object.entries(request.query as Record<string, string | string[]>).map(([name, value]) => [name, [value].flat()[0]]),
  );
}

export function listUsers({ users }: IdentityContext, query: SearchQuery) {
  const first = nonNegativeInteger(query, 'first', 0);
  const max = nonNegativeInteger(query, 'max', DEFAULT_PAGE_SIZE);
  const brief = query.briefRepresentation === 'true';
  return users
    .all()
    .filter(matcher(query))
    .slice(first, first + max)
    .map((user) => representation(user, brief));
}

/** A `credentials` entry of type password: checked against the policy and hashed. */
async function withPassword(users: UserStore, input: NewUser, credentials: unknown): Promise<NewUser> {
  if (credentials === undefined || credentials === null) return input;
  if (!Array.isArray(credentials)) throw new AdminError(400, { errorMessage: 'credentials must be a list' });
  const password = credentials.find((credential) => isObject(credential) && credential.type === 'password') as
    | { value?: unknown; temporary?: unknown }
    | undefined;
  if (!password) return input;
  if (typeof password.value !== 'string') throw new AdminError(400, { errorMessage: 'Password value missing' });
  const username = input.email || (input.username ?? '');
  const problems = checkPassword({ password: password.value, email: input.email, username });
  if (problems.password) throw new AdminError(400, { errorMessage: `Invalid password: ${problems.password}` });
  if (input.email && users.findByEmail(input.email)) throw new UserConflictError('username');
  const passwordHash = await users.hashPassword(password.value);
  const requiredActions =
    password.temporary === true ? [...new Set([...(input.requiredActions ?? []), UPDATE_PASSWORD])] : input.requiredActions;
  return { ...input, passwordHash, ...(requiredActions ? { requiredActions } : {}) };
}

export async function createUser({ users, logger, issuer, adminPath }: IdentityContext, request: AdminRequest, reply: FastifyReply) {
  const body = jsonOf(request);
  const patch = readRepresentation(body);
  // The e-mail is the username when there is one (sign-in by e-mail); an account without one (a
  // launched learner's) names its own username, as Keycloak with registrationEmailAsUsername off.
  const username = patch.email ? undefined : usernameOf(body);
  const input = await withPassword(
    users,
    { ...patch, email: patch.email ?? '', ...(username ? { username } : {}) },
    (body as Record<string, unknown>).credentials,
  );
  const user = users.create(input);
  logger.info({ sub: user.id, by: request.caller.clientId }, 'user created');
  return reply.code(201).header('Location', `${new URL(issuer).origin}${adminPath}/users/${user.id}`).send();
}

export function updateUser({ users, sessionStore, logger }: IdentityContext, request: AdminRequest) {
  const { id } = request.params as UserParams;
  const body = jsonOf(request);
  const before = existingUser(users, id);
  const patch = readRepresentation(body);
  // A new address is not verified unless the caller says it was (the portal does so only after
  // the address confirmed the change): otherwise "forgot password" would trust an address
  // nobody has shown they own.
  if (patch.email !== undefined && patch.emailVerified === undefined && normalizeEmail(patch.email) !== before.email) {
    patch.emailVerified = false;
  }
  const after = users.update(id, patch);
  if (!after) throw notFound();
  // A disabled user's sign-ins end now, as in Keycloak; their tokens stop refreshing.
  if (before.enabled && !after.enabled) sessionStore.forgetAccount(id);
  logger.info({ sub: id, by: request.caller.clientId, fields: Object.keys(patch) }, 'user updated');
}
