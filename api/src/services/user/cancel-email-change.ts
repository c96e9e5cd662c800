import { createAuditRepository } from '../../repositories/audit-repository';
import { createEmailChangeRepository } from '../../repositories/email-change-repository';
import type { AuthUser } from '../../repositories/user-repository';
import { notFound } from '../../lib/http-errors';
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
  await runUnitOfWork(ctx.db, async (uow) => {
    const pendingEmail = await createEmailChangeRepository(uow.q).cancelPending(user.id);
    if (pendingEmail === null) throw notFound();
    await createAuditRepository(uow.q).record({
      actor,
      action: 'cancel_email_change',
      entityType: 'user',
      entityId: user.id,
      organisationId: user.organisation,
      before: { email: user.email, pendingEmail },
      after: { email: user.email },
    });
  });
}
