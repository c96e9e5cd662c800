import { parseLocale } from '../../i18n/locale';
import { normalizeEmail, SUPPORTED_REQUIRED_ACTIONS, type UserPatch, type UserRecord } from '../../accounts/users';
import { AdminError, fieldError } from './errors';

const NAME_MAX_LENGTH = 255;
const EMAIL_MAX_LENGTH = 254;
// Keycloak's person-name-prohibited-characters validator (firstName, lastName).
const PROHIBITED_NAME_CHARACTERS = /[<>&"$%!#?§;*~/\\|^=[\]{}()\p{Cc}]/u;
// What Keycloak's e-mail validator lets through, roughly: one @, no spaces or brackets.
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

export const isObject = (value: unknown): value is Record<string, unknown> =>
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

// Keycloak's username characters, without '@': a username that is no e-mail can never take the
// place of someone's address (the e-mail is the username of everyone who has one).
const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]*$/i;

/**
 * The username of an account created without e-mail. Without either, the e-mail is named as
 * missing: it is what every account but a launched learner's is made with.
 */
export function usernameOf(rep: unknown): string {
  const value = isObject(rep) ? rep.username : undefined;
  if (value === undefined || value === null || value === '') throw fieldError('email', 'error-user-attribute-required');
  if (typeof value !== 'string' || value.length > NAME_MAX_LENGTH || !USERNAME_PATTERN.test(value)) {
    throw fieldError('username', 'error-invalid-value', value);
  }
  return value.toLowerCase();
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
export function readRepresentation(rep: unknown): UserPatch {
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
export function representation(user: UserRecord, brief = false) {
  return {
    id: user.id,
    username: user.username,
    ...(user.firstName ? { firstName: user.firstName } : {}),
    ...(user.lastName ? { lastName: user.lastName } : {}),
    ...(user.email ? { email: user.email } : {}),
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

