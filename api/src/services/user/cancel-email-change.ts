import { cancelEmailChange } from '../../identity/email-change';
import { notFound } from '../../lib/http-errors';
import type { AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertMayChange, visibleUser } from './user-access';

/** DELETE /user/{id}/email-change: the pending change goes and its link stops working. */
export async function cancelUserEmailChange(
  ctx: ServiceContext,
  actor: AuthUser,
  id: string,
): Promise<void> {
  const user = await visibleUser(ctx.repos.users, actor, id);
  await assertMayChange(ctx.repos.users, actor, user);
  const cancelled = await runUnitOfWork(ctx.db, (uow) => cancelEmailChange(uow.q, { user, actor }));
  if (!cancelled) throw notFound();
}
