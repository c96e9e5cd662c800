import { createContext, useContext } from 'react';
import type { LaunchSettings } from '@portal/contract';

export interface ProductInfo {
  productName: string;
  version: string | undefined;
  /** Runtime launch settings from the host's /config.json (defaults when a remote runs alone). */
  launch: LaunchSettings;
}

export const DEFAULT_LAUNCH_SETTINGS: LaunchSettings = {
  simulatorUrl: 'http://localhost:8090',
  launchTimeoutMs: 30000,
  statusPollMs: 1000,
};

export const ProductContext = createContext<ProductInfo | null>(null);

export function useProduct(): ProductInfo {
  const product = useContext(ProductContext);
  if (!product) throw new Error('useProduct() must be used inside <UiProvider>.');
  return product;
}
