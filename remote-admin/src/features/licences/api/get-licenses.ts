import type { LicenseBlock, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';

export const licensesPath = (organisationId: number) =>
  `/api/v1/organisation/${encodeURIComponent(String(organisationId))}/license-block`;

/** GET /api/v1/organisation/{id}/license-block: one page of the organisation's licences. */
export const getLicensesKey = (organisationId: number, params: PagedListParams) =>
  listPath(licensesPath(organisationId), params);

export function useLicenses(organisationId: number, params: PagedListParams) {
  return useApi<PagedResult<LicenseBlock>>(getLicensesKey(organisationId, params), {
    keepPreviousData: true,
  });
}
