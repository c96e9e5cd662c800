import type { AdminUser, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';

export const organisationUsersPath = (organisationId: number) =>
  `/api/v1/organisation/${encodeURIComponent(String(organisationId))}/user`;

/** GET /api/v1/organisation/{id}/user: one page of the organisation's users. */
export const getOrganisationUsersKey = (organisationId: number, params: PagedListParams) =>
  listPath(organisationUsersPath(organisationId), params);

export function useOrganisationUsers(organisationId: number, params: PagedListParams) {
  return useApi<PagedResult<AdminUser>>(getOrganisationUsersKey(organisationId, params), {
    keepPreviousData: true,
  });
}
