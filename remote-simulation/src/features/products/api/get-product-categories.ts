import type { ProductCategory } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';

/** The language is part of the key: a language switch fetches the display names anew. */
export const getProductCategoriesKey = (productId: number, language: string) =>
  `/api/v1/product/${productId}/category?${new URLSearchParams({ language })}`;

/** The product's whole category tree (roots with nested children); null waits. */
export function useProductCategories(productId: number | null) {
  const { i18n } = useTranslation('simulation');
  return useApi<ProductCategory[]>(productId === null ? null : getProductCategoriesKey(productId, i18n.language));
}
