import { createHash, randomBytes } from 'node:crypto';

import { startIdentityApp, type IdentityApp, type IdentityAppOptions } from '../../src/app';
import { type Browser, formBody, formFrom } from './browser';

export const PORTAL = 'http://localhost:8080';
export const CALLBACK = `${PORTAL}/auth/callback`;
export const SILENT_CHECK = `${PORTAL}/silent-check-sso.html`;
export const OIDC = '/protocol/openid-connect';
/** What shared-auth asks for. */
export const PORTAL_SCOPE = 'openid profile email';

export async function startTestProvider(options: Omit<IdentityAppOptions, 'port' | 'host' | 'frontendOrigins'> = {}): Promise<IdentityApp> {
  // Development mode (the outbox) with the demo accounts, as `npm start` runs it.
  return startIdentityApp({
    port: 0,
    host: '127.0.0.1',
    frontendOrigins: [PORTAL, 'http://localhost:8088'],
    devMode: true,
    seedDemo: true,
    // Hundreds of sign-ins across the suite: scrypt at 2^10 instead of 2^15 (passwords.test.ts
    // checks the default cost).
    passwordHashLog2N: 10,
    ...options,
  });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(app: IdentityApp, params: Record<string, string>): URL {
  const url = new URL(`${app.issuer}${OIDC}/auth`);
  const defaults = {
    client_id: 'frontend',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: CALLBACK,
    state: randomBytes(8).toString('hex'),
  };
  for (const [key, value] of Object.entries({ ...defaults, ...params })) url.searchParams.set(key, value);
  return url;
}

export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

/** GET auth → sign-in page → POST credentials → redirect to the portal with a code. */
export async function signIn(
  app: IdentityApp,
  browser: Browser,
  { email = 'learner@demo.test', password = 'demo1234', scope = PORTAL_SCOPE } = {},
): Promise<{ code: string; state: string; verifier: string; sessionState: string | null }> {
  const { verifier, challenge } = pkcePair();
  const request = authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256', scope });
  const page = await browser.follow(request);
  if (page.status !== 200) throw new Error(`expected the sign-in page, got ${page.status}`);
  const { action } = formFrom(await page.text());
  const done = await browser.follow(new URL(action, app.url), formBody({ email, password }));
  const location = done.headers.get('location');
  if (done.status !== 303 || !location) throw new Error(`sign-in did not redirect (status ${done.status})`);
  const callback = new URL(location);
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return { code, state: callback.searchParams.get('state') ?? '', verifier, sessionState: callback.searchParams.get('session_state') };
}

export async function tokenRequest(app: IdentityApp, fields: Record<string, string>, origin = PORTAL) {
  return fetch(`${app.issuer}${OIDC}/token`, {
    ...formBody({ client_id: 'frontend', ...fields }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
  });
}

export async function signInForTokens(app: IdentityApp, browser: Browser, email?: string, password?: string): Promise<TokenSet> {
  const { code, verifier } = await signIn(app, browser, { ...(email ? { email } : {}), ...(password ? { password } : {}) });
  const response = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: CALLBACK,
    code_verifier: verifier,
  });
  if (response.status !== 200) throw new Error(`token request failed: ${await response.text()}`);
  return (await response.json()) as TokenSet;
}
