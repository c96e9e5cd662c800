import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from '../router-testing';
import en from '../../locales/en.json';
import { initI18n } from '../i18n/init-i18n';
import { UiProvider } from '../theme/ui-provider';

/**
 * i18next with the English texts in memory. With bundled resources i18next initialises
 * synchronously, so components render real text on the first render.
 */
export const i18nReady = initI18n({ lng: 'en', resources: { en: { translation: en } } });

export interface RenderAppOptions extends Omit<RenderOptions, 'wrapper'> {
  route?: string;
  productName?: string;
  version?: string;
}

export function renderApp(
  ui: ReactElement,
  { route = '/', productName = 'Simulation Portal', version = '1.6.177-test', ...options }: RenderAppOptions = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <UiProvider productName={productName} version={version}>
      <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
    </UiProvider>
  );
  return { user: userEvent.setup(), ...render(ui, { wrapper: Wrapper, ...options }) };
}
