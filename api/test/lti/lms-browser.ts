import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { startLms, type RunningLms } from '@portal/lms';
import type { LtiRosterSync } from '@portal/contract';
import type { Queryable } from '../../src/db/driver';
import { buildTestApp, type TestApp } from '../helper';
import { userHeaders } from '../routes/api/v1/simulator/session-fixtures';

/**
 * A browser's side of a launch from the learning-platform stand-in (`@portal/lms`) into a
 * listening API: sign in at the stand-in, press a course link's launch button, follow the OIDC
 * login, the platform's auth and its auto-posted id_token to the tool.
 */

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A browser's cookies per origin, enough for the launch journey. */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  async go(url: string, init: { form?: Record<string, string> } = {}) {
    const { origin } = new URL(url);
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    const response = await fetch(url, {
      method: init.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    this.jar.set(origin, cookies);
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location ? new URL(location, url).toString() : null,
      body: await response.text(),
    };
  }
}

const unescape = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))
    .replace(/&amp;/g, '&');

/** The platform's auto-posted auth response: its action and hidden fields. */
function formOf(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  assert.ok(action, `no form in ${page.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const m of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = unescape(m[2]!);
  }
  return { action: unescape(action), fields };
}

/** Stand-in user `user` (lms/README.md) presses "Launch …" of `link`; answers the launchId. */
export async function standInLaunch(
  lmsUrl: string,
  user: string,
  link = 'link-1',
): Promise<string> {
  const browser = new Browser();
  const signIn = await browser.go(`${lmsUrl}/login`, { form: { user, return: '/course' } });
  assert.equal(signIn.status, 303);
  const button = await browser.go(`${lmsUrl}/course/links/${link}/launch`, { form: {} });
  const toAuth = await browser.go(button.location!);
  assert.equal(toAuth.status, 302, toAuth.body);
  const auth = await browser.go(toAuth.location!);
  assert.equal(auth.status, 200, auth.body);
  const post = formOf(auth.body);
  const landed = await browser.go(post.action, { form: post.fields });
  const target = new URL(landed.location!);
  assert.equal(target.pathname, '/lti/launch', landed.location!);
  return target.searchParams.get('launchId')!;
}

/**
 * The stand-in's fixed endpoints (lms/README.md) registered as the demo data registers its main
 * client: Demo Hospital's, whose users are the demo accounts linked by e-mail, so the platform is
 * marked as verifying addresses.
 */
export async function registerStandIn(db: Queryable, lmsUrl: string): Promise<void> {
  await db.query(
    `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
                                deployment_ids, organisation_id, verifies_email)
     values ($1, 'portal-tool', $1 || '/lti/auth', $1 || '/oauth2/token',
             $1 || '/.well-known/jwks.json', array['demo-deployment'],
             (select id from organisations where name = 'Demo Hospital'), true)`,
    [lmsUrl],
  );
}

/** A listening test API and the stand-in, each knowing the other's address (nothing registered). */
export async function startApiWithStandIn(): Promise<{ t: TestApp; lms: RunningLms }> {
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const lms = await startLms({ portalUrl: apiUrl, testEndpoints: true });
  const t = await buildTestApp({ portalUrl: apiUrl });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, lms };
}

/** `sub` (an instructor) syncs the roster of `launchId`'s course; answers the finished sync. */
export async function runRosterSync(t: TestApp, launchId: string, sub: string): Promise<LtiRosterSync> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/lti/roster-sync',
    headers: await userHeaders(sub),
    payload: { launchId },
  });
  assert.equal(res.statusCode, 202, res.body);
  await t.app.outboxWorker.idle();
  const got = await t.app.inject({
    method: 'GET',
    url: `/api/v1/lti/roster-sync/${res.json<{ id: string }>().id}`,
    headers: await userHeaders(sub),
  });
  assert.equal(got.statusCode, 200, got.body);
  return got.json<LtiRosterSync>();
}
