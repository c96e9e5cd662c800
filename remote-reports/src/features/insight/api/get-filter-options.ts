import type { Organisation, PagedResult, ProductList } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

/**
 * GET /api/v1/organisation: the organisations a global administrator picks from, by name (the list's default order). The
 * largest page the API serves (PagedQuery pageSize ≤ 100); the organisation id in the URL works
 * for any other.
 */
export const ORGANISATION_OPTIONS_PATH = '/api/v1/organisation?page=1&pageSize=100';

export function useOrganisationOptions(enabled: boolean) {
  return useApi<PagedResult<Organisation>>(enabled ? ORGANISATION_OPTIONS_PATH : null);
}

/** GET /api/v1/product: the products the user's organisation is licensed for. */
export const PRODUCT_OPTIONS_PATH = '/api/v1/product';

export function useProductOptions() {
  return useApi<ProductList>(PRODUCT_OPTIONS_PATH);
}
