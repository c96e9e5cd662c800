import type { LookupField, LookupList } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getLookupKey = (field: LookupField) => `/api/v1/lookup?${new URLSearchParams({ field })}`;

export function useLookup(field: LookupField) {
  return useApi<LookupList>(getLookupKey(field));
}
