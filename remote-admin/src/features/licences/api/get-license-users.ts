import type { LicensedUser, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';
import { getLicenseKey } from './get-license';

/** GET /api/v1/organisation/{id}/license-block/{licenseId}/user: the users holding a seat. */
export const getLicenseUsersKey = (
  organisationId: number,
  licenseId: number,
  params: PagedListParams,
) => listPath(`${getLicenseKey(organisationId, licenseId)}/user`, params);

export function useLicenseUsers(
  organisationId: number,
  licenseId: number,
  params: PagedListParams,
) {
  return useApi<PagedResult<LicensedUser>>(getLicenseUsersKey(organisationId, licenseId, params), {
    keepPreviousData: true,
  });
}
