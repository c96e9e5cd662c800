import type { LicenseBlock, LicenseBlockInput } from '@portal/contract';
import { createLicenseRepository } from '../../repositories/license-repository';
import type { AuthUser } from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';
import { assertOrganisationInScope } from '../organisation/organisation-access';

/** PUT /organisation/{id}/license-block/{licenseId}: null when the organisation has no such licence. */
export async function updateLicenseBlock(
  ctx: ServiceContext,
  actor: AuthUser,
  organisationId: number,
  id: number,
  input: LicenseBlockInput,
): Promise<LicenseBlock | null> {
  assertOrganisationInScope(actor, organisationId);
  return runUnitOfWork(ctx.db, (uow) =>
    createLicenseRepository(uow.q).update(organisationId, id, input, actor),
  );
}
