import type { PagedResult, ProductConfiguration } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import type { PagedListParams } from '@portal/shared-ui/widgets';
import { listPath } from '../../../lib/list-query';

export const configurationsPath = (productId: number) =>
  `/api/v1/product/${encodeURIComponent(String(productId))}/configuration`;

/** GET /api/v1/product/{id}/configuration: one page of the product's configurations. */
export const getConfigurationsKey = (productId: number, params: PagedListParams) =>
  listPath(configurationsPath(productId), params);

export function useConfigurations(productId: number, params: PagedListParams) {
  return useApi<PagedResult<ProductConfiguration>>(getConfigurationsKey(productId, params), {
    keepPreviousData: true,
  });
}
