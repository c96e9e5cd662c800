import type { AuditEntry, PagedResult } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';

export const AUDIT_PATH = '/api/v1/audit';

/**
 * GET /api/v1/audit?organisation={id}: one page of the organisation's history (its own entries
 * and those about its licences and users). Global administrators may read any organisation's, an
 * organisation administrator only their own (others answer 404).
 */
export const getAuditKey = (organisationId: number, params: PagedListParams) => {
  const path = listPath(AUDIT_PATH, params);
  return `${path}${path.includes('?') ? '&' : '?'}organisation=${encodeURIComponent(String(organisationId))}`;
};

export function useOrganisationAudit(organisationId: number, params: PagedListParams) {
  return useApi<PagedResult<AuditEntry>>(getAuditKey(organisationId, params), {
    keepPreviousData: true,
  });
}
