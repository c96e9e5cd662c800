import { createBrightspaceRepository } from '../../repositories/brightspace-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';

/**
 * A new single-use state for the user's Brightspace round trip (expired ones are cleared in the
 * same unit of work), and the secret only their browser keeps.
 */
export function startBrightspaceSignIn(ctx: Pick<ServiceContext, 'db'>, userId: string, redirectPath: string) {
  return runUnitOfWork(ctx.db, (uow) =>
    createBrightspaceRepository(uow.q).createState(userId, redirectPath),
  );
}

/**
 * Uses the state up at the callback, before any call to Brightspace, so a code or refusal is
 * answered once whatever happens next. null when unknown, used or expired.
 */
export function consumeBrightspaceState(ctx: Pick<ServiceContext, 'db'>, state: string) {
  return runUnitOfWork(ctx.db, (uow) => createBrightspaceRepository(uow.q).consumeState(state));
}
