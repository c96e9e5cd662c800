import type { Organisation, OrganisationListQuery, PagedResult, ProductList } from '@portal/contract';
import { useApi, withQuery } from '@portal/shared-auth';

/** How many matches the organisation picker lists at once; typing more narrows the rest. */
export const ORGANISATION_SEARCH_PAGE_SIZE = 20;
/** How long typing must pause before the picker searches. */
export const ORGANISATION_SEARCH_DELAY_MS = 300;

/**
 * GET /api/v1/organisation?filter=…: the organisations a global administrator picks from, by name
 * (the list's default order). The API searches them (name, city, contacts), so any one of any
 * number can be found; `''` lists the first by name.
 */
export const organisationSearchPath = (filter: string) => {
  const query: OrganisationListQuery = { page: 1, pageSize: ORGANISATION_SEARCH_PAGE_SIZE, filter: filter || undefined };
  return withQuery('/api/v1/organisation', query);
};

/** `null` searches nothing (the picker's list is closed). */
export function useOrganisationSearch(filter: string | null) {
  return useApi<PagedResult<Organisation>>(filter === null ? null : organisationSearchPath(filter), { keepPreviousData: true });
}

/** GET /api/v1/organisation/{id}: the name of the organisation the URL names by id. */
export function useOrganisation(id: string) {
  return useApi<Organisation>(/^[1-9]\d{0,9}$/.test(id) ? `/api/v1/organisation/${id}` : null);
}

/** GET /api/v1/product: the products the user's organisation is licensed for. */
export const PRODUCT_OPTIONS_PATH = '/api/v1/product';

export function useProductOptions() {
  return useApi<ProductList>(PRODUCT_OPTIONS_PATH);
}
