import type { LicenseBlock, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';
import { getUserKey } from './get-user';

/** GET /api/v1/user/{id}/license-block: the licences the user holds a seat of. */
export const getUserLicensesKey = (userId: string, params: PagedListParams) =>
  listPath(`${getUserKey(userId)}/license-block`, params);

export function useUserLicenses(userId: string, params: PagedListParams) {
  return useApi<PagedResult<LicenseBlock>>(getUserLicensesKey(userId, params), {
    keepPreviousData: true,
  });
}
