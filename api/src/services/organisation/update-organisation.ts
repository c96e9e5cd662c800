import type { Organisation, OrganisationInput } from '@portal/contract';
import { isGlobalAdmin } from '../../lib/object-access';
import { createOrganisationRepository } from '../../repositories/organisation-repository';
import type { AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertOrganisationInScope } from './organisation-access';

/**
 * PUT /organisation/{id}: null when there is none. Only global administrators may change
 * `isActive`.
 */
export async function updateOrganisation(
  ctx: ServiceContext,
  actor: AuthUser,
  id: number,
  input: OrganisationInput,
): Promise<Organisation | null> {
  assertOrganisationInScope(actor, id);
  return runUnitOfWork(ctx.db, async (uow) => {
    // Its members' next request must see a (de)activation, or a new name, at once: the auth
    // hook reuses loaded users for a few seconds.
    uow.afterCommit(() => ctx.authUsers.forgetAll());
    return createOrganisationRepository(uow.q).update(id, input, actor, isGlobalAdmin(actor));
  });
}
