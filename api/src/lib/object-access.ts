import type { AuthUser } from '../repositories/user-repository';

/**
 * Global administrators see every organisation's data (docs/requirements.md#permissions); everyone else only their own.
 * Creating organisations is the one permission only global administrators hold, so it marks them.
 */
export function isGlobalAdmin(user: AuthUser): boolean {
  return user.permissions.includes('global.create_org');
}

/** Users' own resources (`/user/{id}/…`) answer 404 for any other id, so ids cannot be probed. */
export function isSelf(user: AuthUser, id: string): boolean {
  return user.id.toLowerCase() === id.toLowerCase();
}
