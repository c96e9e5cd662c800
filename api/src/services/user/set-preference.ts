import type { FieldErrors, UserPreference } from '@portal/contract';
import { badRequest } from '../../lib/http-errors';
import type { ServiceContext } from '../service-context';

/**
 * PUT /user/{id}/preference: the caller's language and skin tone, both checked against the
 * lookups; null when the user is gone. One statement, so no unit of work. The language is part of
 * the signed-in user, so the auth cache forgets them around the write (before: a lookup already
 * under way does not store what it read; after: whoami shows the new language at once).
 */
export async function setPreference(
  ctx: ServiceContext,
  userId: string,
  preference: UserPreference,
): Promise<UserPreference | null> {
  const { language, skinTone } = preference;
  const errors: FieldErrors = {};
  if (!(await ctx.repos.lookups.existsByCode('language', language))) {
    errors.language = [`"${language}" is not a valid choice.`];
  }
  if (skinTone !== null && !(await ctx.repos.lookups.existsById('skinTone', skinTone))) {
    errors.skinTone = [`Invalid pk "${skinTone}" - object does not exist.`];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  ctx.authUsers.forget(userId);
  try {
    return await ctx.repos.users.setPreference(userId, preference);
  } finally {
    ctx.authUsers.forget(userId);
  }
}
