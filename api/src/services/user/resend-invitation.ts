import {
  INVITATION_RESEND_MINUTES,
  NON_FIELD_ERRORS,
  USER_ADMIN_MESSAGES as M,
  type InvitationResult,
} from '@portal/contract';
import { IDENTITY_KINDS, invitationItem } from '../../identity/provisioning';
import { badRequest, notFound } from '../../lib/http-errors';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import { createUserRepository, type AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertMayChange, visibleUser } from './user-access';

/**
 * POST /user/{id}/invitation: queues the set-password invitation again, unless one is on its way
 * or was sent within INVITATION_RESEND_MINUTES (then answers that one, `queued` false).
 */
export async function resendInvitation(
  ctx: ServiceContext,
  actor: AuthUser,
  id: string,
): Promise<InvitationResult> {
  const user = await visibleUser(ctx.repos.users, actor, id);
  await assertMayChange(ctx.repos.users, actor, user);
  if (user.email === null) throw badRequest({ email: [M.noEmailToInvite] });
  return runUnitOfWork(ctx.db, async (uow): Promise<InvitationResult> => {
    const users = createUserRepository(uow.q);
    // Locked: two resends at once queue here, and the second finds the first one's item.
    const status = await users.lockAccountStatus(user.id);
    if (status === undefined) throw notFound();
    if (status === 'active') throw badRequest({ [NON_FIELD_ERRORS]: [M.invitationAccepted] });
    if (status !== 'invited') throw badRequest({ [NON_FIELD_ERRORS]: [M.invitationPending] });
    const item = invitationItem(user);
    const previous = await users.invitationQueuedAt(
      item.key,
      IDENTITY_KINDS.invite,
      INVITATION_RESEND_MINUTES,
    );
    if (previous) return { queuedAt: previous, queued: false };
    await createOutboxRepository(uow.q).enqueue([item]);
    await createAuditRepository(uow.q).record({
      actor,
      action: 'invite',
      entityType: 'user',
      entityId: user.id,
      organisationId: user.organisation,
      before: null,
      after: { email: user.email, accountStatus: status },
    });
    uow.afterCommit(() => ctx.outboxWorker.kick());
    return { queuedAt: await users.transactionTime(), queued: true };
  });
}
