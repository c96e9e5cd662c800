import type { Logger } from 'pino';
import type Provider from 'oidc-provider';
import type { SecurityHeaders } from '@portal/service-kit';

import type { ActionTokens } from './accounts/action-tokens';
import type { UserStore } from './accounts/users';
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
}
