import type { IncomingMessage, ServerResponse } from 'node:http';

import { createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type { Logger } from 'pino';

import {
  type ActionTokens,
  DEFAULT_ACTION_LIFESPAN_SECONDS,
  MAX_ACTION_LIFESPAN_SECONDS,
} from './action-tokens';
import { HttpError, sendJson } from './http';
import { REALM_MANAGEMENT_CLIENT } from './keycloak-claims';
import { parseLocale } from './locale';
import type { Mailer } from './mailer';
import type { MemoryStore } from './memory-store';
import { checkPassword } from './password-policy';
import { hashPassword } from './passwords';
import { CLIENT_ID } from './provider';
import { ACTION_TOKEN_PATH } from './set-password';
import { publicJwks, type SigningJwks } from './signing-keys';
import {
  normalizeEmail,
  type NewUser,
  SUPPORTED_REQUIRED_ACTIONS,
  UPDATE_PASSWORD,
  UserConflictError,
  type UserPatch,
  type UserRecord,
  type UserStore,
  userLocale,
} from './users';
import { invitationMail } from './views/invitation-mail';

export interface AdminApiOptions {
  issuer: string;
  /** Where the admin API lives: Keycloak's `/admin/realms/{realm}`. */
  adminPath: string;
  jwks: SigningJwks;
  users: UserStore;
  sessionStore: MemoryStore;
  actionTokens: ActionTokens;
  mailer: Mailer;
  frontendOrigins: string[];
  productName: string;
  logger: Logger;
}

/** Keycloak's admin path for a realm issuer: `…/realms/main` → `…/admin/realms/main`. */
export function adminPathFor(mountPath: string): string {
  return mountPath.replace(/\/realms\/([^/]+)$/, '/admin/realms/$1');
}

const JSON_LIMIT_BYTES = 64 * 1024;
const NAME_MAX_LENGTH = 255;
const EMAIL_MAX_LENGTH = 254;
const DEFAULT_PAGE_SIZE = 100;
// Keycloak's person-name-prohibited-characters validator (firstName, lastName).
const PROHIBITED_NAME_CHARACTERS = /[<>&"$%!#?§;*~/\\|^=[\]{}()\p{Cc}]/u;
// What Keycloak's e-mail validator lets through, roughly: one @, no spaces or brackets.
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

/** Keycloak's error bodies: `{errorMessage}`, a field error `{field, errorMessage, params}`. */
class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.errorMessage ?? body.error ?? status));
  }
}

const fieldError = (field: string, errorMessage: string, value?: unknown) =>
  new AdminError(400, { field, errorMessage, params: value === undefined ? [field] : [field, value] });
const notFound = () => new AdminError(404, { error: 'User not found' });

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new AdminError(415, { error: 'Expected an application/json body.' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > JSON_LIMIT_BYTES) throw new AdminError(413, { error: 'Request body too large.' });
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new AdminError(400, { error: 'unknown_error', errorMessage: 'The request body is not valid JSON.' });
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalBoolean(rep: Record<string, unknown>, field: string): boolean | undefined {
  const value = rep[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw fieldError(field, 'error-invalid-value', value);
  return value;
}

function optionalName(rep: Record<string, unknown>, field: 'firstName' | 'lastName'): string | undefined {
  const value = rep[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fieldError(field, 'error-invalid-value', value);
  const name = value.trim();
  if ([...name].length > NAME_MAX_LENGTH) throw fieldError(field, 'error-invalid-length', value);
  if (PROHIBITED_NAME_CHARACTERS.test(name)) throw fieldError(field, 'error-person-name-invalid-character', value);
  return name;
}

function optionalEmail(rep: Record<string, unknown>): string | undefined {
  const value = rep.email;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw fieldError('email', 'invalid-email', value);
  const email = normalizeEmail(value);
  if (!email) throw fieldError('email', 'error-user-attribute-required');
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) throw fieldError('email', 'invalid-email', value);
  return email;
}

function optionalRequiredActions(rep: Record<string, unknown>): string[] | undefined {
  const value = rep.requiredActions;
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((action) => typeof action === 'string')) {
    throw new AdminError(400, { errorMessage: 'requiredActions must be a list of names' });
  }
  const unsupported = value.filter((action) => !SUPPORTED_REQUIRED_ACTIONS.includes(action));
  if (unsupported.length > 0) {
    throw new AdminError(400, { errorMessage: `Unsupported required actions: ${unsupported.join(', ')}` });
  }
  return value;
}

/** Keycloak keeps attributes as lists of strings; a single string is taken as a list of one. */
function optionalAttributes(rep: Record<string, unknown>): Record<string, string[]> | undefined {
  const value = rep.attributes;
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new AdminError(400, { errorMessage: 'attributes must be an object' });
  const attributes: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(value)) {
    const list = typeof raw === 'string' ? [raw] : raw;
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item.length <= NAME_MAX_LENGTH)) {
      throw fieldError(name, 'error-invalid-value');
    }
    if (name === 'locale' && list[0] !== undefined && !parseLocale(list[0])) throw fieldError('locale', 'error-invalid-value', list[0]);
    attributes[name] = list as string[];
  }
  return attributes;
}

/** The fields of a UserRepresentation we keep; anything else (id, username, groups…) is ignored. */
function readRepresentation(rep: unknown): UserPatch {
  if (!isObject(rep)) throw new AdminError(400, { errorMessage: 'Expected a user representation (a JSON object).' });
  const patch: UserPatch = {};
  const email = optionalEmail(rep);
  if (email !== undefined) patch.email = email;
  const firstName = optionalName(rep, 'firstName');
  if (firstName !== undefined) patch.firstName = firstName;
  const lastName = optionalName(rep, 'lastName');
  if (lastName !== undefined) patch.lastName = lastName;
  const enabled = optionalBoolean(rep, 'enabled');
  if (enabled !== undefined) patch.enabled = enabled;
  const emailVerified = optionalBoolean(rep, 'emailVerified');
  if (emailVerified !== undefined) patch.emailVerified = emailVerified;
  const requiredActions = optionalRequiredActions(rep);
  if (requiredActions !== undefined) patch.requiredActions = requiredActions;
  const attributes = optionalAttributes(rep);
  if (attributes !== undefined) patch.attributes = attributes;
  return patch;
}

/** Keycloak's UserRepresentation as its admin API answers it. */
function representation(user: UserRecord, brief = false) {
  return {
    id: user.id,
    username: user.username,
    ...(user.firstName ? { firstName: user.firstName } : {}),
    ...(user.lastName ? { lastName: user.lastName } : {}),
    email: user.email,
    emailVerified: user.emailVerified,
    ...(!brief && Object.keys(user.attributes).length > 0 ? { attributes: user.attributes } : {}),
    createdTimestamp: user.createdTimestamp,
    enabled: user.enabled,
    totp: false,
    disableableCredentialTypes: [],
    requiredActions: user.requiredActions,
    notBefore: 0,
    ...(brief
      ? {}
      : { access: { manageGroupMembership: true, view: true, mapRoles: true, impersonate: false, manage: true } }),
  };
}

const lower = (value: string) => value.toLowerCase();

/**
 * Keycloak's user search: `search` is a prefix match on username, e-mail, first and last name
 * (`*` is a wildcard, `"…"` exact); the attribute parameters are infix matches, or exact with
 * `exact=true`; all case-insensitive, ordered by username, paged with `first` and `max`.
 */
function matcher(query: URLSearchParams): (user: UserRecord) => boolean {
  const checks: ((user: UserRecord) => boolean)[] = [];
  const exact = query.get('exact') === 'true';
  const search = query.get('search')?.trim();
  if (search && search !== '*') {
    let test: (value: string) => boolean;
    if (search.length > 1 && search.startsWith('"') && search.endsWith('"')) {
      const wanted = lower(search.slice(1, -1));
      test = (value) => lower(value) === wanted;
    } else {
      const pattern = search.includes('*') ? search : `${search}*`;
      const regex = new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        'i',
      );
      test = (value) => regex.test(value);
    }
    checks.push((user) => [user.username, user.email, user.firstName, user.lastName].some(test));
  }
  for (const field of ['username', 'email', 'firstName', 'lastName'] as const) {
    const value = query.get(field);
    if (value === null) continue;
    const wanted = lower(value.trim());
    checks.push((user) => (exact ? lower(user[field]) === wanted : lower(user[field]).includes(wanted)));
  }
  for (const field of ['enabled', 'emailVerified'] as const) {
    const value = query.get(field);
    if (value === 'true' || value === 'false') checks.push((user) => user[field] === (value === 'true'));
  }
  return (user) => checks.every((check) => check(user));
}

function nonNegativeInteger(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0) throw new AdminError(400, { error: `Invalid ${name}` });
  return value;
}

interface Caller {
  roles: string[];
  clientId: string | undefined;
}

/**
 * The subset of Keycloak's Admin REST API the portal uses, as @keycloak/keycloak-admin-client 26
 * calls it: users (create, find, count, get, update, delete, logout) and the execute-actions
 * e-mail. Callers present an access token of this realm holding realm-management's view-users
 * (reads) or manage-users (writes): in practice the `portal-api` service client's
 * client-credentials token. Anything else is 401 (no or bad token) or 403 (no such role).
 */
export function createAdminApiHandler(options: AdminApiOptions) {
  const { issuer, adminPath, jwks, users, sessionStore, actionTokens, mailer, frontendOrigins, productName, logger } =
    options;
  const keys = createLocalJWKSet(publicJwks(jwks));
  const usersPath = `${adminPath}/users`;
  const publicOrigin = new URL(issuer).origin;
  const realmPath = new URL(issuer).pathname;

  async function authenticate(req: IncomingMessage): Promise<Caller> {
    const [scheme, token] = (req.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw new AdminError(401, { error: 'HTTP 401 Unauthorized' });
    try {
      const { payload } = await jwtVerify(token, keys, { issuer, algorithms: ['RS256'], typ: 'at+jwt' });
      const access = payload.resource_access as Record<string, { roles?: unknown }> | undefined;
      const roles = access?.[REALM_MANAGEMENT_CLIENT]?.roles;
      return {
        roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
        clientId: typeof payload.azp === 'string' ? payload.azp : undefined,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw new AdminError(401, { error: 'HTTP 401 Unauthorized' });
      throw error;
    }
  }

  function authorize(caller: Caller, role: 'view-users' | 'manage-users'): void {
    // manage-users implies view-users in Keycloak as well.
    const allowed = caller.roles.includes('manage-users') || (role === 'view-users' && caller.roles.includes('view-users'));
    if (!allowed) throw new AdminError(403, { error: 'HTTP 403 Forbidden' });
  }

  const existing = (id: string): UserRecord => {
    const user = users.get(id);
    if (!user) throw notFound();
    return user;
  };

  function list(query: URLSearchParams) {
    const first = nonNegativeInteger(query, 'first', 0);
    const max = nonNegativeInteger(query, 'max', DEFAULT_PAGE_SIZE);
    const brief = query.get('briefRepresentation') === 'true';
    return users
      .all()
      .filter(matcher(query))
      .slice(first, first + max)
      .map((user) => representation(user, brief));
  }

  async function create(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const body = await readJson(req);
    const patch = readRepresentation(body);
    // The realm uses the e-mail as username, so Keycloak asks for the e-mail (not a username).
    if (!patch.email) throw fieldError('email', 'error-user-attribute-required');
    const input: NewUser = { ...patch, email: patch.email };
    const credentials = (body as Record<string, unknown>).credentials;
    if (credentials !== undefined && credentials !== null) {
      if (!Array.isArray(credentials)) throw new AdminError(400, { errorMessage: 'credentials must be a list' });
      const password = credentials.find((credential) => isObject(credential) && credential.type === 'password') as
        | { value?: unknown; temporary?: unknown }
        | undefined;
      if (password) {
        if (typeof password.value !== 'string') throw new AdminError(400, { errorMessage: 'Password value missing' });
        const problems = checkPassword({ password: password.value, email: input.email, username: input.email });
        if (problems.password) throw new AdminError(400, { errorMessage: `Invalid password: ${problems.password}` });
        if (users.findByEmail(input.email)) throw new UserConflictError('username');
        input.passwordHash = await hashPassword(password.value);
        if (password.temporary === true) input.requiredActions = [...new Set([...(input.requiredActions ?? []), UPDATE_PASSWORD])];
      }
    }
    const user = users.create(input);
    logger.info({ sub: user.id, by: caller.clientId }, 'user created');
    res.writeHead(201, { Location: `${publicOrigin}${usersPath}/${user.id}`, 'Content-Length': 0 }).end();
  }

  function update(id: string, body: unknown, caller: Caller): void {
    const before = existing(id);
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
    logger.info({ sub: id, by: caller.clientId, fields: Object.keys(patch) }, 'user updated');
  }

  function redirectTarget(query: URLSearchParams): { clientId?: string; redirectUri?: string } {
    const clientId = query.get('client_id') ?? undefined;
    const redirectUri = query.get('redirect_uri') ?? undefined;
    if (redirectUri && !clientId) throw new AdminError(400, { errorMessage: 'Client id missing' });
    if (clientId && clientId !== CLIENT_ID) throw new AdminError(400, { errorMessage: "Client doesn't exist" });
    if (redirectUri) {
      let url: URL;
      try {
        url = new URL(redirectUri);
      } catch {
        throw new AdminError(400, { errorMessage: 'Invalid redirect uri.' });
      }
      // Only the portals this provider signs in for may receive the user afterwards.
      if (!frontendOrigins.includes(url.origin) || url.hash) throw new AdminError(400, { errorMessage: 'Invalid redirect uri.' });
    }
    return { ...(clientId ? { clientId } : {}), ...(redirectUri ? { redirectUri } : {}) };
  }

  async function executeActionsEmail(req: IncomingMessage, res: ServerResponse, id: string, query: URLSearchParams, caller: Caller) {
    const body = await readJson(req);
    const user = existing(id);
    if (!Array.isArray(body) || body.length === 0 || !body.every((action) => typeof action === 'string')) {
      throw new AdminError(400, { errorMessage: 'Provide the required actions as a non-empty list' });
    }
    const unsupported = body.filter((action) => !SUPPORTED_REQUIRED_ACTIONS.includes(action));
    if (unsupported.length > 0) throw new AdminError(400, { errorMessage: 'Provided invalid required actions' });
    if (!user.enabled) throw new AdminError(400, { errorMessage: 'User is disabled' });
    if (!user.email) throw new AdminError(400, { errorMessage: 'User email missing' });
    const lifespan = nonNegativeInteger(query, 'lifespan', DEFAULT_ACTION_LIFESPAN_SECONDS);
    if (lifespan < 1 || lifespan > MAX_ACTION_LIFESPAN_SECONDS) {
      throw new AdminError(400, { errorMessage: `lifespan must be between 1 and ${MAX_ACTION_LIFESPAN_SECONDS} seconds` });
    }
    const target = redirectTarget(query);
    const key = await actionTokens.create({ sub: user.id, actions: body as string[], ver: user.credentialVersion, ...target }, lifespan);
    const link = `${publicOrigin}${realmPath}${ACTION_TOKEN_PATH}?key=${encodeURIComponent(key)}`;
    const mail = invitationMail({
      productName,
      firstName: user.firstName,
      lastName: user.lastName,
      link,
      lifespanSeconds: lifespan,
      locale: parseLocale(userLocale(user)),
    });
    try {
      await mailer.send({ to: user.email, ...mail });
    } catch (error) {
      logger.error({ err: error, sub: user.id }, 'could not send the execute-actions e-mail');
      throw new AdminError(500, { errorMessage: 'Failed to send execute actions email' });
    }
    logger.info({ sub: user.id, by: caller.clientId, actions: body, lifespan }, 'execute-actions e-mail sent');
    res.writeHead(204).end();
  }

  async function route(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
    const method = req.method ?? 'GET';
    const caller = await authenticate(req);
    const notAllowed = (allow: string) => {
      throw new AdminError(405, { error: 'HTTP 405 Method Not Allowed', allow });
    };

    if (path === usersPath) {
      if (method === 'GET') {
        authorize(caller, 'view-users');
        sendJson(res, 200, list(query));
        return;
      }
      if (method === 'POST') {
        authorize(caller, 'manage-users');
        await create(req, res, caller);
        return;
      }
      notAllowed('GET, POST');
    }
    if (path === `${usersPath}/count`) {
      if (method !== 'GET') notAllowed('GET');
      authorize(caller, 'view-users');
      sendJson(res, 200, users.all().filter(matcher(query)).length);
      return;
    }
    const match = new RegExp(`^${usersPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/([^/]+)(?:/(execute-actions-email|logout))?$`).exec(path);
    if (!match) throw new AdminError(404, { error: 'Unable to find matching target resource method' });
    const id = decodeURIComponent(match[1]!);
    const sub = match[2];

    if (sub === 'execute-actions-email') {
      if (method !== 'PUT') notAllowed('PUT');
      authorize(caller, 'manage-users');
      await executeActionsEmail(req, res, id, query, caller);
      return;
    }
    if (sub === 'logout') {
      if (method !== 'POST') notAllowed('POST');
      authorize(caller, 'manage-users');
      existing(id);
      sessionStore.forgetAccount(id);
      res.writeHead(204).end();
      return;
    }
    if (method === 'GET') {
      authorize(caller, 'view-users');
      sendJson(res, 200, representation(existing(id)));
      return;
    }
    if (method === 'PUT') {
      authorize(caller, 'manage-users');
      update(id, await readJson(req), caller);
      res.writeHead(204).end();
      return;
    }
    if (method === 'DELETE') {
      authorize(caller, 'manage-users');
      if (!users.delete(id)) throw notFound();
      sessionStore.forgetAccount(id);
      logger.info({ sub: id, by: caller.clientId }, 'user deleted');
      res.writeHead(204).end();
      return;
    }
    notAllowed('GET, PUT, DELETE');
  }

  return async function handleAdminApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    // The admin client joins paths to `…/users/` (JAX-RS, behind Keycloak, ignores the slash).
    const path = url.pathname.replace(/\/+$/, '');
    try {
      await route(req, res, path, url.searchParams);
    } catch (error) {
      if (res.headersSent) throw error;
      if (error instanceof AdminError) {
        const headers: Record<string, string> = {};
        if (error.status === 401) headers['WWW-Authenticate'] = `Bearer realm="${REALM_MANAGEMENT_CLIENT}"`;
        if (error.status === 405 && typeof error.body.allow === 'string') headers.Allow = error.body.allow;
        const { allow: _allow, ...body } = error.body;
        sendJson(res, error.status, body, headers);
        return;
      }
      if (error instanceof UserConflictError) {
        sendJson(res, 409, { errorMessage: error.message });
        return;
      }
      if (error instanceof HttpError) {
        sendJson(res, error.status, { error: error.message });
        return;
      }
      throw error;
    }
  };
}
