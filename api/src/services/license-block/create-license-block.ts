import type { LicenseBlock, LicenseBlockInput } from '@portal/contract';
import { createLicenseRepository } from '../../repositories/license-repository';
import type { AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertOrganisationInScope } from '../organisation/organisation-access';

/** POST /organisation/{id}/license-block: null when the organisation does not exist. */
export async function createLicenseBlock(
  ctx: ServiceContext,
  actor: AuthUser,
  organisationId: number,
  input: LicenseBlockInput,
): Promise<LicenseBlock | null> {
  assertOrganisationInScope(actor, organisationId);
  return runUnitOfWork(ctx.db, (uow) =>
    createLicenseRepository(uow.q).create(organisationId, input, actor),
  );
}
