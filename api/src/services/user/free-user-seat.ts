import { notFound } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import { createLicenseRepository } from '../../repositories/license-repository';
import type { AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { visibleUser } from './user-access';

/** DELETE /user/{id}/license-block/{licenseId}: frees the user's seat of the licence. */
export async function freeUserSeat(
  ctx: ServiceContext,
  actor: AuthUser,
  id: string,
  licenseId: number,
): Promise<void> {
  const user = await visibleUser(ctx.repos.users, actor, id);
  await runUnitOfWork(ctx.db, async (uow) => {
    const removed = await createLicenseRepository(uow.q).unassignUser({
      licenseBlockId: licenseId,
      userId: user.id,
      organisationId: isGlobalAdmin(actor) ? null : actor.organisationId,
      actor,
    });
    if (!removed) throw notFound();
    // Entitlements come from seats; the user's next call must not see the old ones.
    uow.afterCommit(() => ctx.authUsers.forget(user.id));
  });
}
