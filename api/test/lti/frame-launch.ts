import assert from 'node:assert/strict';
import type { App } from '../../src/app';
import { LAUNCH_BROWSER_COOKIE } from '../../src/lti/launch-browser-cookie';
import { loginQuery, ltiLaunchRequest } from './lti-fixtures';
import { signLaunch, type LaunchShape, type TestPlatform } from './platform-fixtures';

/**
 * A resource link launch of the Demo Hospital learner as the browser sees its answer: the launch
 * id, the launch page's frame key (URL fragment), the browser cookie, the redirect.
 */
export async function frameLaunch(
  app: App,
  platform: TestPlatform,
  shape: Partial<LaunchShape> = {},
) {
  const req = await ltiLaunchRequest(app, platform, {
    sub: 'frame-learner',
    email: 'learner@demo.test',
    ...shape,
  });
  const res = await app.inject({ method: 'POST', ...req });
  assert.equal(res.statusCode, 302, res.body);
  const to = new URL(res.headers.location as string);
  assert.equal(to.pathname, '/lti/launch', to.toString());
  return {
    to,
    launchId: to.searchParams.get('launchId')!,
    frameKey: new URLSearchParams(to.hash.slice(1)).get('frameKey')!,
    cookie: res.cookies.find((c) => c.name === LAUNCH_BROWSER_COOKIE)!,
  };
}

/** A ticket for the launch, as its launch page asks for one. */
export async function launchTicket(app: App, launch: { launchId: string; frameKey: string }) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/lti/launch-window/${launch.launchId}/ticket`,
    payload: { frameKey: launch.frameKey },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ ticket: string }>().ticket;
}

/**
 * A login whose platform offered its postMessage storage (`lti_storage_target=_parent`) and the
 * platform's signed answer: the state, the id_token, the storage page the login answered.
 */
export async function storageLogin(
  app: App,
  platform: TestPlatform,
  shape: Partial<LaunchShape> = {},
) {
  const login = await app.inject({
    method: 'GET',
    url: `/api/lti/login?${loginQuery(platform, { lti_storage_target: '_parent' })}`,
  });
  assert.equal(login.statusCode, 200, login.body);
  const next = new URL(dataOf(login.body, 'next'));
  const state = next.searchParams.get('state')!;
  const idToken = await signLaunch(platform, {
    nonce: next.searchParams.get('nonce')!,
    sub: 'frame-learner',
    email: 'learner@demo.test',
    ...shape,
  });
  return { login, state, idToken };
}

/** A data-* attribute of the storage pages' one element, unescaped. */
export function dataOf(html: string, name: string): string {
  const match = new RegExp(`data-${name}="([^"]*)"`).exec(html);
  assert.ok(match, `data-${name} in the page`);
  return match[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The launch's second step as the storage page sends it. */
export function storageCheck(state: string, idToken: string, stored: string | null) {
  return {
    method: 'POST' as const,
    url: '/api/lti/launch/storage',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ id_token: idToken, state, stored_state: stored }),
  };
}
