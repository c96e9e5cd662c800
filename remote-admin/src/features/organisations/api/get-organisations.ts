import type { Organisation, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';

export const ORGANISATIONS_PATH = '/api/v1/organisation';

/** GET /api/v1/organisation: one page of the organisations the user may see. */
export const getOrganisationsKey = (params: PagedListParams) =>
  listPath(ORGANISATIONS_PATH, params);

export function useOrganisations(params: PagedListParams) {
  // The previous page stays on screen while the next loads, so the table does not flash.
  return useApi<PagedResult<Organisation>>(getOrganisationsKey(params), { keepPreviousData: true });
}
