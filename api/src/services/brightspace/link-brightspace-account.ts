import {
  type BrightspaceUser,
  createBrightspaceRepository,
} from '../../repositories/brightspace-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';

/**
 * The Brightspace callback's last step: links (or re-links) the user who started the round trip to
 * the Brightspace user whoami named, with its audit entry. false when that user is gone.
 */
export function linkBrightspaceAccount(
  ctx: ServiceContext,
  userId: string,
  user: BrightspaceUser,
): Promise<boolean> {
  return runUnitOfWork(ctx.db, async (uow) => {
    const linked = await createBrightspaceRepository(uow.q).link(userId, user);
    // whoami must show the link at once, not after the auth cache's few seconds.
    if (linked) uow.afterCommit(() => ctx.authUsers.forget(userId));
    return linked;
  });
}
