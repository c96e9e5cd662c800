import { useMemo, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { GlobalStyle } from './global-style';
import type { LaunchSettings } from '@portal/contract';
import { DEFAULT_LAUNCH_SETTINGS, ProductContext } from './product-context';
import { theme } from './theme';

export interface UiProviderProps {
  productName: string;
  version?: string;
  launch?: LaunchSettings;
  children?: ReactNode;
}

export function UiProvider({ productName, version, launch = DEFAULT_LAUNCH_SETTINGS, children }: UiProviderProps) {
  if (!productName.trim()) throw new Error('UiProvider: productName must not be empty.');
  const product = useMemo(() => ({ productName, version, launch }), [productName, version, launch]);
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <ProductContext.Provider value={product}>{children}</ProductContext.Provider>
    </ThemeProvider>
  );
}
