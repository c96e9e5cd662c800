import { createHash, randomBytes } from 'node:crypto';
import type { APIResponse, ConsoleMessage, Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import { HOST_URL } from '../playwright.config';

// Issue #7, point 3: every origin of the running stack answers with a Content-Security-Policy
// that closes plugins, base URLs and framing, with nosniff and a referrer policy, and never with
// HSTS over plain http. Then the portal must still work under these policies in a real browser.
const REMOTES = ['http://localhost:8081', 'http://localhost:8082', 'http://localhost:8083'];
const IDENTITY = 'http://localhost:8180';
const ISSUER = `${IDENTITY}/realms/main`;
const SIMULATOR = 'http://localhost:8090';
const API = 'http://localhost:3000';

/** The policy as directive → sources, whatever the server's spacing. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}

/** Checks the headers every answer of every origin must carry; returns the parsed policy. */
function expectHardened(response: APIResponse, what: string): Map<string, string[]> {
  const headers = response.headers();
  const csp = headers['content-security-policy'];
  expect(csp, `${what}: Content-Security-Policy`).toBeTruthy();
  const policy = directives(csp!);
  expect(policy.get('object-src'), `${what}: object-src`).toEqual(["'none'"]);
  expect(policy.get('base-uri'), `${what}: base-uri`).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors'), `${what}: frame-ancestors`).toBeTruthy();
  expect(headers['x-content-type-options'], `${what}: nosniff`).toBe('nosniff');
  expect(headers['referrer-policy'], `${what}: Referrer-Policy`).toBeTruthy();
  expect(headers['strict-transport-security'], `${what}: no HSTS over http`).toBeUndefined();
  return policy;
}

test.describe('security headers on every origin', () => {
  test('host: shell, client route, config, hashed bundle and the silent sign-in page', async ({ request }) => {
    const shell = await request.get(`${HOST_URL}/`);
    expect(shell.status()).toBe(200);
    const policy = expectHardened(shell, 'host /');
    expect(policy.get('script-src')).toEqual(["'self'", ...REMOTES]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    // Each remote's strings load from the remote's own origin (locales/{lng}/{namespace}.json).
    expect(policy.get('connect-src')).toEqual(["'self'", IDENTITY, ...REMOTES]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);

    const route = await request.get(`${HOST_URL}/simulation`);
    expect(route.status()).toBe(200);
    expect(expectHardened(route, 'host /simulation').get('frame-ancestors')).toEqual(["'none'"]);

    expectHardened(await request.get(`${HOST_URL}/config.json`), 'host /config.json');

    // The built shell is minified: attribute quotes are optional.
    const bundle = /src="?(\/[^"\s>]+\.[0-9a-f]{8,}\.js)/.exec(await shell.text())?.[1];
    expect(bundle, 'the shell loads a hashed bundle').toBeTruthy();
    const asset = await request.get(`${HOST_URL}${bundle}`);
    expect(asset.status()).toBe(200);
    expectHardened(asset, `host ${bundle}`);

    const silent = await request.get(`${HOST_URL}/silent-check-sso.html`);
    expect(silent.status()).toBe(200);
    const silentPolicy = expectHardened(silent, 'host /silent-check-sso.html');
    expect(silentPolicy.get('frame-ancestors'), 'framed by the portal itself only').toEqual(["'self'"]);
    // Its one inline script runs by hash, never by 'unsafe-inline'.
    const inline = /<script>([\s\S]*?)<\/script>/.exec(await silent.text())?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(silentPolicy.get('script-src')).toContain(hash);
    expect(silentPolicy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  test('remotes: remoteEntry.js under a strict policy, loadable cross-origin', async ({ request }) => {
    for (const origin of REMOTES) {
      const entry = await request.get(`${origin}/remoteEntry.js`);
      expect(entry.status(), origin).toBe(200);
      const policy = expectHardened(entry, `${origin}/remoteEntry.js`);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(entry.headers()['access-control-allow-origin']).toBe('*');
    }
  });

  test('identity: discovery, JWKS, the sign-in page and an error', async ({ request }) => {
    const portalMayFrame = (policy: Map<string, string[]>) =>
      expect(policy.get('frame-ancestors')).toEqual(expect.arrayContaining(["'self'", HOST_URL]));

    const discovery = await request.get(`${ISSUER}/.well-known/openid-configuration`);
    expect(discovery.status()).toBe(200);
    portalMayFrame(expectHardened(discovery, 'identity discovery'));
    const jwksUri = ((await discovery.json()) as { jwks_uri: string }).jwks_uri;
    const jwks = await request.get(jwksUri);
    expect(jwks.status()).toBe(200);
    expect(expectHardened(jwks, 'identity JWKS').get('default-src')).toEqual(["'none'"]);

    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const authorize = new URL(`${ISSUER}/protocol/openid-connect/auth`);
    for (const [key, value] of Object.entries({
      client_id: 'frontend',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${HOST_URL}/auth/callback`,
      state: 'headers-test',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })) {
      authorize.searchParams.set(key, value);
    }
    const signIn = await request.get(authorize.href);
    expect(signIn.status()).toBe(200);
    expect(await signIn.text()).toContain('type="password"');
    const signInPolicy = expectHardened(signIn, 'identity sign-in page');
    portalMayFrame(signInPolicy);
    expect(signInPolicy.get('default-src')).toEqual(["'none'"]);

    const tokenError = await request.post(`${ISSUER}/protocol/openid-connect/token`, {
      form: { grant_type: 'authorization_code', code: 'forged', client_id: 'frontend', redirect_uri: `${HOST_URL}/auth/callback` },
    });
    expect(tokenError.status()).toBe(400);
    expectHardened(tokenError, 'identity token error');
    const unknown = await request.get(`${IDENTITY}/nowhere`);
    expect(unknown.status()).toBe(404);
    expectHardened(unknown, 'identity 404');
  });

  test('simulator: its pages run no script and cannot be framed', async ({ request }) => {
    for (const path of ['/', '/launch']) {
      const page = await request.get(`${SIMULATOR}${path}`);
      expect(page.status()).toBeLessThan(500);
      const policy = expectHardened(page, `simulator ${path}`);
      expect(policy.get('default-src')).toEqual(["'none'"]);
      expect(policy.get('script-src')).toBeUndefined();
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    }
  });

  test('API: health and a refusal, direct and through the host proxy, keep the API policy', async ({ request }) => {
    for (const [what, url] of [
      ['API /healthz', `${API}/healthz`],
      ['API 401 direct', `${API}/api/v1/user/whoami`],
      ['API 401 via host', `${HOST_URL}/api/v1/user/whoami`],
      ['API 404 via host', `${HOST_URL}/api/v1/no-such-route`],
    ] as const) {
      const response = await request.get(url);
      if (what.includes('401')) expect(response.status(), what).toBe(401);
      if (what.includes('404')) expect(response.status(), what).toBe(404);
      const policy = expectHardened(response, what);
      expect(policy.get('default-src'), what).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
      expect(response.headers()['referrer-policy'], what).toBe('no-referrer');
    }
  });
});

/** Collects every CSP violation the page (any of its frames) reports. */
function watchViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  void page.exposeFunction('__reportCspViolation', (text: string) => violations.push(text));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${location.origin}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return violations;
}

test.describe('the portal under its policies', () => {
  test('a learner signs in, reaches the simulations and the reports with no policy violation', async ({
    portal,
    page,
  }) => {
    const violations = watchViolations(page);
    await portal.signInAt('/', 'learner@demo.test');
    await portal.acceptCookiesIfAsked();
    await expect(page).toHaveURL(/\/simulation$/);
    await expect(page.getByRole('heading', { name: 'Simulations' })).toBeVisible();

    await page.getByRole('link', { name: 'Reports' }).first().click();
    await expect(page.getByRole('heading', { name: 'Your reports' })).toBeVisible();

    // Without its stored user the portal finds the identity provider's session through the
    // hidden prompt=none iframe (frame-src, silent-check-sso.html's hashed script, connect-src).
    await page.evaluate(() => {
      for (const key of Object.keys(localStorage)) if (key.startsWith('oidc.')) localStorage.removeItem(key);
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your reports' })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0);
    expect(violations).toEqual([]);
  });

  test('the administrator area loads its remote under the host policy', async ({ portal, page }) => {
    const violations = watchViolations(page);
    await portal.signInAt('/admin/organisation', 'sysadmin@demo.test');
    await portal.acceptCookiesIfAsked();
    await expect(page.getByRole('heading', { name: 'Organisations' })).toBeVisible();
    expect(violations).toEqual([]);

    // The watcher does see a violation: a script of another origin, as an injection would add it.
    const ran = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const script = document.createElement('script');
          script.src = 'http://localhost:8090/healthz';
          script.onload = () => resolve(true);
          script.onerror = () => resolve(false);
          document.head.append(script);
        }),
    );
    expect(ran).toBe(false);
    await expect.poll(() => violations.join('\n')).toMatch(/script-src.*localhost:8090/);
  });
});
