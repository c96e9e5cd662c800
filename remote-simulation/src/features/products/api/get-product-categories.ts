import type { ProductCategory } from '@portal/contract';
import { useApi } from '@portal/shared-auth';

export const getProductCategoriesKey = (productId: number) =>
  `/api/v1/product/${productId}/category`;

/** The product's whole category tree (roots with nested children); null waits. */
export function useProductCategories(productId: number | null) {
  return useApi<ProductCategory[]>(productId === null ? null : getProductCategoriesKey(productId));
}
