import type { AdminUser } from '@portal/contract';
import { confirmEmailChange } from '../../identity/email-change';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';

/** POST /email-change/confirm: the user's e-mail becomes the pending one; answers the user. */
export function confirmPendingEmail(ctx: ServiceContext, token: string): Promise<AdminUser> {
  return runUnitOfWork(ctx.db, async (uow) => {
    const user = await confirmEmailChange(uow.q, token);
    // The e-mail is part of the signed-in user; their next call must see it.
    uow.afterCommit(() => ctx.repos.users.forget(user.id));
    uow.afterCommit(() => ctx.outboxWorker.kick());
    return user;
  });
}
