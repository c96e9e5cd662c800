import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';

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
