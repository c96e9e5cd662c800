import { NON_FIELD_ERRORS, USER_ADMIN_MESSAGES as M } from '@portal/contract';
import { deleteAccountItem } from '../../identity/provisioning';
import { badRequest, notFound } from '../../lib/http-errors';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import { createUserRepository, type AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertMayChange, visibleUser } from './user-access';

/** DELETE /user/{id}: the user and (through the outbox) their identity account; seats are freed. */
export async function removeUser(ctx: ServiceContext, actor: AuthUser, id: string): Promise<void> {
  const user = await visibleUser(ctx.repos.users, actor, id);
  if (user.id === actor.id) throw badRequest({ [NON_FIELD_ERRORS]: [M.deleteSelf] });
  const role = await assertMayChange(ctx.repos.users, actor, user);

  await runUnitOfWork(ctx.db, async (uow) => {
    const users = createUserRepository(uow.q);
    if (role?.isGlobal) {
      const admins = await users.lockGlobalAdmins();
      if (!admins.some((other) => other !== user.id)) {
        throw badRequest({ [NON_FIELD_ERRORS]: [M.lastGlobalAdmin] });
      }
    }
    const sub = await users.identitySubOf(user.id);
    if (!(await users.remove(user.id))) throw notFound();
    // Everyone's account goes, a launched user's without e-mail (`lti-<id>`) too: left behind,
    // it would keep the broker link of a user who no longer exists.
    await createOutboxRepository(uow.q).enqueue([
      deleteAccountItem({ id: user.id, email: user.email, sub }),
    ]);
    await createAuditRepository(uow.q).record({
      actor,
      action: 'delete',
      entityType: 'user',
      entityId: user.id,
      organisationId: user.organisation,
      before: user,
      after: null,
    });
    uow.afterCommit(() => ctx.authUsers.forget(user.id));
    uow.afterCommit(() => ctx.outboxWorker.kick());
  });
}
