import type { LookupField, LookupItem, LookupList } from '@portal/contract';
import { useApi, withQuery } from '@portal/shared-auth';
import type { SelectOption } from '@portal/shared-ui/widgets';

/** GET /api/v1/lookup?field=…[&organisation=…][&product_id=…] (docs/requirements.md#calls). */
export const getLookupKey = (field: LookupField, organisation?: number, productId?: number) =>
  withQuery('/api/v1/lookup', { field, organisation, product_id: productId });

export function useLookup(
  field: LookupField,
  organisation?: number,
  { enabled = true, productId }: { enabled?: boolean; productId?: number } = {},
) {
  return useApi<LookupList>(enabled ? getLookupKey(field, organisation, productId) : null);
}

/** Select choices of a lookup: the id as the value (forms keep strings), the name as the label. */
export const lookupOptions = (items: readonly LookupItem[] | undefined): SelectOption[] =>
  (items ?? []).map((item) => ({ value: String(item.id), label: item.name }));
