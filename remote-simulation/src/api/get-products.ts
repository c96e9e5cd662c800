import type { ProductList } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { useTranslation } from '@portal/shared-ui';

/** The language is part of the key: a language switch fetches the catalogue texts anew. */
export const getProductsKey = (language: string) => `/api/v1/product?${new URLSearchParams({ language })}`;

/** The products the signed-in user may see (the API filters by licence); `enabled: false` waits. */
export function useProducts({ enabled = true }: { enabled?: boolean } = {}) {
  const { i18n } = useTranslation('simulation');
  return useApi<ProductList>(enabled ? getProductsKey(i18n.language) : null);
}
