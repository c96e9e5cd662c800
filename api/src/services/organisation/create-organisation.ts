import type { Organisation, OrganisationInput } from '@portal/contract';
import { createOrganisationRepository } from '../../repositories/organisation-repository';
import type { AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';

/** POST /organisation: the organisation and its audit entry. */
export function createOrganisation(
  ctx: ServiceContext,
  actor: AuthUser,
  input: OrganisationInput,
): Promise<Organisation> {
  return runUnitOfWork(ctx.db, (uow) => createOrganisationRepository(uow.q).create(input, actor));
}
