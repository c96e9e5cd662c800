import { createBrightspaceRepository } from '../../repositories/brightspace-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';

/** POST /user/brightspace-auth-reset: forgets the caller's Brightspace user, audited. */
export async function resetBrightspaceLink(ctx: ServiceContext, userId: string): Promise<void> {
  await runUnitOfWork(ctx.db, async (uow) => {
    await createBrightspaceRepository(uow.q).unlink(userId);
    // The Brightspace flags are part of the signed-in user: their next call must see them cleared.
    uow.afterCommit(() => ctx.authUsers.forget(userId));
  });
}
