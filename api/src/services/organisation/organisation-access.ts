import { notFound } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import type { AuthUser } from '../../repositories/user-repository';

/**
 * Global administrators reach every organisation; anyone else only their own, and another id
 * answers 404 as if it did not exist, so organisation ids cannot be probed.
 */
export function assertOrganisationInScope(user: AuthUser, organisationId: number): void {
  if (!isGlobalAdmin(user) && user.organisationId !== organisationId) throw notFound();
}
