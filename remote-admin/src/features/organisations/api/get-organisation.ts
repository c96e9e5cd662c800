import type { Organisation } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

/** GET /api/v1/organisation/{id}. */
export const getOrganisationKey = (id: number) => `/api/v1/organisation/${encodeURIComponent(String(id))}`;

export function useOrganisation(id: number | null) {
  return useApi<Organisation>(id === null ? null : getOrganisationKey(id));
}
