import { PERMISSION_DENIED, type AdminUser } from '@portal/contract';
import { forbidden, notFound } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import type { AuthUser, RoleInfo, UserRepository } from '../../repositories/user-repository';

/** Global administrators see every user; everyone else only their own organisation's. */
export function canSeeUser(actor: AuthUser, user: { organisation: number | null }): boolean {
  return (
    isGlobalAdmin(actor) ||
    (actor.organisationId !== null && user.organisation === actor.organisationId)
  );
}

/** The user if the caller may see them, else 404 (other organisations' users do not exist). */
export async function visibleUser(
  users: UserRepository,
  actor: AuthUser,
  id: string,
): Promise<AdminUser> {
  const user = await users.findAdminUser(id);
  if (!user || !canSeeUser(actor, user)) throw notFound();
  return user;
}

/** Only global administrators touch a global administrator's account; answers the user's role. */
export async function assertMayChange(
  users: UserRepository,
  actor: AuthUser,
  user: AdminUser,
): Promise<RoleInfo | null> {
  const role = await users.findRole(user.userRole);
  if (role?.isGlobal && !isGlobalAdmin(actor)) throw forbidden(PERMISSION_DENIED);
  return role;
}
