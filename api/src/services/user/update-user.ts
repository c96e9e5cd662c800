import {
  EMAIL_CHANGE_MESSAGES,
  USER_ADMIN_MESSAGES as M,
  type AdminUser,
  type AdminUserInput,
  type FieldErrors,
} from '@portal/contract';
import { updateAccountItem } from '../../identity/provisioning';
import { emailError, nameError } from '../../lib/csv/users-csv';
import { ApiError, badRequest } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createEmailChangeRepository } from '../../repositories/email-change-repository';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import { createUserRepository, type AuthUser } from '../../repositories/user-repository';
import { requestEmailChange } from '../email-change/request-email-change';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertMayChange, visibleUser } from './user-access';

/**
 * PUT /user/{id}: names and role change at once (the identity account follows through the
 * outbox); a different e-mail becomes a pending change whose two mails must both go out, or the
 * change is withdrawn and the caller gets a 503 (the other changes stay saved).
 */
export async function updateUser(
  ctx: ServiceContext,
  actor: AuthUser,
  id: string,
  body: AdminUserInput,
  log: ServiceContext['log'] = ctx.log,
): Promise<AdminUser> {
  const before = await visibleUser(ctx.repos.users, actor, id);
  const currentRole = await assertMayChange(ctx.repos.users, actor, before);

  const firstName = body.firstName.trim();
  const lastName = body.lastName.trim();
  const email = body.email.trim().toLowerCase();
  const errors: FieldErrors = {};
  const check = (field: string, error: string | null) => {
    if (error) errors[field] = [error];
  };
  check('firstName', nameError(firstName));
  check('lastName', nameError(lastName));
  check('email', emailError(email));
  const emailChanged = email !== before.email.toLowerCase();
  if (emailChanged && !errors.email && !ctx.mailer) errors.email = [EMAIL_CHANGE_MESSAGES.noMailer];
  const role = await ctx.repos.users.findRole(body.userRole);
  if (!role) errors.userRole = [M.invalidChoice];
  else if (role.isGlobal !== (currentRole?.isGlobal ?? false) && !isGlobalAdmin(actor)) {
    errors.userRole = [M.sysAdminOnly];
  }
  if (Object.keys(errors).length > 0 || !role) throw badRequest(errors);

  const { after, requested } = await runUnitOfWork(ctx.db, async (uow) => {
    const users = createUserRepository(uow.q);
    if (currentRole?.isGlobal && !role.isGlobal) {
      const admins = await users.lockGlobalAdmins();
      if (!admins.some((other) => other !== before.id))
        throw badRequest({ userRole: [M.lastGlobalAdmin] });
    }
    if (emailChanged && (await users.emailsInUse([email])).size > 0) {
      throw badRequest({ email: [M.emailTaken] });
    }
    await users.updateNamesAndRole(before.id, { firstName, lastName, roleId: role.id });
    const changed = (await users.findAdminUser(before.id))!;
    // Role and names are part of the signed-in user: their next call must see the change.
    uow.afterCommit(() => ctx.authUsers.forget(changed.id));
    uow.afterCommit(() => ctx.outboxWorker.kick());
    const namesChanged =
      changed.firstName !== before.firstName || changed.lastName !== before.lastName;
    if (namesChanged) await createOutboxRepository(uow.q).enqueue([updateAccountItem(changed)]);
    if (namesChanged || changed.userRole !== before.userRole) {
      await createAuditRepository(uow.q).record({
        actor,
        action: 'update',
        entityType: 'user',
        entityId: before.id,
        organisationId: before.organisation,
        before,
        after: changed,
      });
    }
    if (!emailChanged) return { after: changed, requested: null };
    const change = await requestEmailChange(uow.q, {
      user: changed,
      newEmail: email,
      actor,
      settings: { portalUrl: ctx.config.portalUrl, productName: ctx.config.mail!.productName },
    });
    return { after: (await users.findAdminUser(before.id))!, requested: change };
  });
  if (requested) {
    try {
      // Both or the change is withdrawn: the old address must hear of any change that can
      // still be confirmed.
      await Promise.all(requested.mails.map((mail) => ctx.mailer!.send(mail)));
    } catch (error) {
      log.error({ err: error, userId: after.id }, 'e-mail change mails not sent');
      await createEmailChangeRepository(ctx.db).withdraw(requested.token);
      throw new ApiError(503, { email: [EMAIL_CHANGE_MESSAGES.notSent] });
    }
  }
  return after;
}
