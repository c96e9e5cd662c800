import type { ReactNode } from 'react';
import type { RuntimeConfig } from '@portal/contract';
import { AuthProvider, PortalSWRConfig, type UserManagerLike } from '@portal/shared-auth';
import { UiProvider } from '@portal/shared-ui';
import { RuntimeConfigProvider } from '../config/runtime-config';
import { LanguageSync } from './language-sync';

export interface AppProvidersProps {
  config: RuntimeConfig;
  children?: ReactNode;
  /** Tests inject a UserManager; the app builds one from config.oidc. */
  userManager?: UserManagerLike;
  /** Tests isolate the SWR cache per render. */
  swrValue?: Parameters<typeof PortalSWRConfig>[0]['value'];
  /** Where the sign-in returns to (signInCallbackBase of the page the portal started on). */
  callbackBase?: string;
}

/** Everything a screen of the host (or a remote inside it) relies on, outermost first. */
export function AppProviders({ config, children, userManager, swrValue, callbackBase }: AppProvidersProps) {
  return (
    <RuntimeConfigProvider config={config}>
      <UiProvider productName={config.productName} version={config.version} launch={config.launch}>
        <AuthProvider
          authority={config.oidc.authority}
          clientId={config.oidc.clientId}
          apiBaseUrl={config.apiBaseUrl}
          {...(callbackBase ? { callbackBase } : {})}
          {...(userManager ? { userManager } : {})}
        >
          <PortalSWRConfig {...(swrValue ? { value: swrValue } : {})}>
            <LanguageSync />
            {children}
          </PortalSWRConfig>
        </AuthProvider>
      </UiProvider>
    </RuntimeConfigProvider>
  );
}
