import type { ProductList } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getProductsKey = () => '/api/v1/product';

/** The products the signed-in user may see (the API filters by licence); `enabled: false` waits. */
export function useProducts({ enabled = true }: { enabled?: boolean } = {}) {
  return useApi<ProductList>(enabled ? getProductsKey() : null);
}
