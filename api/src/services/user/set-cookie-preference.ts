import type { CookiePreference } from '@portal/contract';
import type { ServiceContext } from '../service-context';

/** PUT /user/{id}/cookie-preference: the caller's consent answer; null when the user is gone. */
export function setCookiePreference(
  ctx: ServiceContext,
  userId: string,
  preference: CookiePreference,
): Promise<CookiePreference | null> {
  // One statement, so no unit of work; nothing cached depends on it.
  return ctx.repos.users.setCookiePreference(userId, preference);
}
