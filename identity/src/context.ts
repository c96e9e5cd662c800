import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { Lifecycle, SecurityHeaders } from '@portal/service-kit';

import type { ActionTokens } from './accounts/action-tokens';
import type { UserStore } from './accounts/users';
import type { BrokeredLogins } from './broker/brokered-login';
import type { IdentityProviderRepresentation } from './broker/identity-providers';
import type { PlatformFrameOrigins } from './http/brokered-framing';
import type { IdentityMetrics } from './http/metrics';
import type { Pages } from './http/pages';
import type { Mailer } from './mail/mailer';
import type { MemoryStore } from './oidc/memory-store';
import type { SigningJwks } from './oidc/signing-keys';
import type { SignInGuard } from './security/brute-force';

/** What the routes share: built once per start in app.ts and handed to every route plugin. */
export interface IdentityContext {
  issuer: string;
  /** The realm path the provider is mounted under, e.g. `/realms/main`. */
  mountPath: string;
  /** Keycloak's admin path of the realm, e.g. `/admin/realms/main`. */
  adminPath: string;
  frontendOrigins: string[];
  /** External OpenID providers this realm brokers (Keycloak's `identityProviders`). */
  identityProviders: IdentityProviderRepresentation[];
  /** Sign-ins through those providers (kc_idp_hint → provider → broker endpoint). */
  brokeredLogins: BrokeredLogins;
  /** The learning platforms that may frame a launch's brokered sign-in (null: none). */
  platformFrameOrigins: PlatformFrameOrigins | null;
  productName: string;
  logger: Logger;
  jwks: SigningJwks;
  users: UserStore;
  sessionStore: MemoryStore;
  actionTokens: ActionTokens;
  mailer: Mailer;
  provider: Provider;
  /** One for sign-in, device codes and set-password posts: an address's cap covers all three. */
  guard: SignInGuard;
  pages: Pages;
  /** The headers every answer carries (pages replace the policy with their nonce-based one). */
  securityHeaders: SecurityHeaders;
  /** /metrics's series and token (undefined = no /metrics), and whether the process is draining. */
  metrics: IdentityMetrics;
  metricsToken: string | undefined;
  lifecycle: Lifecycle;
  /** Where users and keys are kept (null: memory); readiness checks it is writable. */
  dataDir: string | null;
}
