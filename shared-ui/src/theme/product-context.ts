import { createContext, useContext } from 'react';

export interface ProductInfo {
  productName: string;
  version: string | undefined;
}

export const ProductContext = createContext<ProductInfo | null>(null);

export function useProduct(): ProductInfo {
  const product = useContext(ProductContext);
  if (!product) throw new Error('useProduct() must be used inside <UiProvider>.');
  return product;
}
