import type { AdminUser } from '@portal/contract';
import { invitationItem, updateAccountItem } from '../../identity/provisioning';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createEmailChangeRepository } from '../../repositories/email-change-repository';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import { createUserRepository } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { refused, usableChange } from './email-change-link';

/**
 * POST /email-change/confirm: uses the link. In one unit of work, under a lock on the change, the
 * user's e-mail becomes the new one, the link is marked used, the identity account's update
 * (e-mail verified) is queued and the confirmation is audited with the user as actor. An invited
 * user, whose set-password mail went to the old address, is invited again at the new one.
 */
export function confirmEmailChange(ctx: ServiceContext, token: string): Promise<AdminUser> {
  return runUnitOfWork(ctx.db, async (uow) => {
    const changes = createEmailChangeRepository(uow.q);
    const users = createUserRepository(uow.q);
    const change = await usableChange(changes, token, true);
    const before = await users.findAdminUser(change.user_id);
    if (!before) throw refused('invalid');
    const email = change.new_email;
    if (email.toLowerCase() !== before.email.toLowerCase()) {
      if ((await users.emailsInUse([email])).size > 0) throw refused('taken');
    }
    try {
      await users.setEmail(before.id, email);
    } catch (error) {
      // Another user took the address between the check and the write (users_email_key).
      if ((error as { code?: unknown }).code === '23505') throw refused('taken');
      throw error;
    }
    await changes.markConfirmed(before.id);
    const after = (await users.findAdminUser(before.id))!;
    const items = [updateAccountItem(after, { emailVerified: true })];
    if (after.accountStatus === 'invited') items.push(invitationItem(after));
    await createOutboxRepository(uow.q).enqueue(items);
    await createAuditRepository(uow.q).record({
      actor: { id: after.id, firstName: after.firstName, lastName: after.lastName, email },
      action: 'confirm_email_change',
      entityType: 'user',
      entityId: after.id,
      organisationId: after.organisation,
      before: { email: before.email, pendingEmail: email },
      after: { email },
    });
    // The e-mail is part of the signed-in user; their next call must see it.
    uow.afterCommit(() => ctx.authUsers.forget(after.id));
    uow.afterCommit(() => ctx.outboxWorker.kick());
    return after;
  });
}
