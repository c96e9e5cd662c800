import { useMemo, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { GlobalStyle } from './global-style';
import { ProductContext } from './product-context';
import { theme } from './theme';

export interface UiProviderProps {
  productName: string;
  version?: string;
  children?: ReactNode;
}

export function UiProvider({ productName, version, children }: UiProviderProps) {
  if (!productName.trim()) throw new Error('UiProvider: productName must not be empty.');
  const product = useMemo(() => ({ productName, version }), [productName, version]);
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <ProductContext.Provider value={product}>{children}</ProductContext.Provider>
    </ThemeProvider>
  );
}
