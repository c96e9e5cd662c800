import type { ProductConfiguration } from '@portal/contract';
import { useApi } from '@portal/shared-auth';
import { configurationsPath } from './get-configurations';

/** GET /api/v1/product/{id}/configuration/{configurationId}. */
export const getConfigurationKey = (productId: number, configurationId: number) =>
  `${configurationsPath(productId)}/${encodeURIComponent(String(configurationId))}`;

export function useConfiguration(productId: number, configurationId: number) {
  return useApi<ProductConfiguration>(getConfigurationKey(productId, configurationId));
}
