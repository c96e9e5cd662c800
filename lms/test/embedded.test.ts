import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningLms } from '../src/index';
import { completeLogin, form, PORTAL_URL, signInTo, startTestLms, startTestTool, type TestTool } from './support';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const unescape = (s: string) => s.replace(/&amp;/g, '&').replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

/** The CSP header as directive → sources. */
function cspOf(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy');
  assert.ok(header, 'a Content-Security-Policy');
  return new Map(header.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...sources]) => [name!, sources]));
}

describe('the embedded launch', () => {
  let tool: TestTool;
  let lms: RunningLms;
  before(async () => {
    tool = await startTestTool();
    // The tool's sign-in passes through its identity provider inside the frame.
    lms = await startTestLms(tool, { frameOrigins: ['http://identity.test:8180/realms/main'] });
  });
  after(async () => {
    await lms.close();
    await tool.close();
  });

  const get = (path: string, cookie?: string) => fetch(`${lms.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: 'manual' });

  it('is offered on the course page beside the launch in this window', async () => {
    const page = await (await get('/course', await signInTo(lms, '106'))).text();
    assert.match(page, /<button type="submit">Launch Radiography<\/button>/);
    assert.match(page, /<a href="\/course\/links\/link-1\/embedded">Launch Radiography \(embedded\)<\/a>/);
  });

  it('shows the tool in a frame whose login initiation names this page as postMessage storage', async () => {
    const cookie = await signInTo(lms, '106');
    const response = await get('/course/links/link-1/embedded', cookie);
    assert.equal(response.status, 200);
    const page = await response.text();
    // The platform's chrome around the frame.
    assert.match(page, /<nav aria-label="Learning platform">/);
    assert.match(page, /Signed in as Lena Learner2/);
    assert.match(page, /<h1>Radiography<\/h1>/);
    const frame = /<iframe ([^>]*)><\/iframe>/.exec(page)?.[1];
    assert.ok(frame, 'an iframe');
    const attribute = (name: string) => {
      const match = new RegExp(`(?:^|\\s)${name}(?:="([^"]*)")?(?:\\s|$)`).exec(frame);
      return match ? unescape(match[1] ?? '') : null;
    };
    assert.equal(attribute('title'), 'Radiography (Simulation Portal)');
    assert.match(attribute('allow')!, /(^|; )fullscreen(;|$)/);
    assert.equal(attribute('data-lti-storage-origin'), PORTAL_URL);
    const login = new URL(attribute('src')!);
    assert.equal(`${login.origin}${login.pathname}`, `${PORTAL_URL}/api/lti/login`);
    assert.equal(login.searchParams.get('lti_storage_target'), '_parent');
    assert.equal(login.searchParams.get('login_hint'), '106');
    assert.equal(login.searchParams.get('client_id'), 'portal-tool');
    assert.equal(login.searchParams.get('iss'), lms.url);
    assert.match(page, /<script src="\/assets\/lti-storage.js" defer><\/script>/);

    // The launch it starts says it is shown in a frame.
    const { response: authResponse, payload } = await completeLogin(lms, cookie, login.searchParams);
    assert.equal(payload.sub, '106');
    assert.equal((payload[`${LTI}launch_presentation`] as { document_target: string }).document_target, 'iframe');
    assert.deepEqual(payload[`${LTI}resource_link`], { id: 'link-1', title: 'Radiography' });
    // The auth response runs inside that frame: our own page may frame it, nobody else.
    assert.deepEqual(cspOf(authResponse).get('frame-ancestors'), ["'self'"]);
    assert.equal(authResponse.headers.get('x-frame-options'), 'SAMEORIGIN');
  });

  it('sends its security headers, framing the portal, our auth endpoint and the origins configured, nothing else', async () => {
    const response = await get('/course/links/link-1/embedded', await signInTo(lms, '101'));
    const csp = cspOf(response);
    assert.deepEqual(csp.get('frame-src'), ["'self'", PORTAL_URL, 'http://identity.test:8180']);
    assert.deepEqual(csp.get('frame-ancestors'), ["'none'"]);
    assert.deepEqual(csp.get('script-src'), ["'self'"]);
    assert.deepEqual(csp.get('default-src'), ["'none'"]);
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin-allow-popups');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    // Every other page keeps the strict set: no frames in it, none of it in a frame.
    const course = await get('/course', await signInTo(lms, '101'));
    assert.equal(cspOf(course).get('frame-src'), undefined);
    assert.deepEqual(cspOf(course).get('frame-ancestors'), ["'none'"]);
    assert.equal(course.headers.get('cross-origin-opener-policy'), 'same-origin');

    const script = await get('/assets/lti-storage.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type')!, /^text\/javascript/);
    assert.match(await script.text(), /lti\.capabilities/);
  });

  it('asks for sign-in first, and answers 404 for a link that is not there', async () => {
    const anonymous = await get('/course/links/link-1/embedded');
    assert.equal(anonymous.status, 303);
    assert.equal(anonymous.headers.get('location'), `/login?return=${encodeURIComponent('/course/links/link-1/embedded')}`);
    assert.equal((await get('/course/links/link-99/embedded', await signInTo(lms, '101'))).status, 404);
  });

  it('keeps the launch in this window as it was: no storage target, document_target window', async () => {
    const cookie = await signInTo(lms, '101');
    const pressed = await fetch(`${lms.url}/course/links/link-1/launch`, { ...form({}), headers: { ...form({}).headers, cookie }, redirect: 'manual' });
    const login = new URL(pressed.headers.get('location')!).searchParams;
    assert.equal(login.get('lti_storage_target'), null);
    const { payload } = await completeLogin(lms, cookie, login);
    assert.equal((payload[`${LTI}launch_presentation`] as { document_target: string }).document_target, 'window');
  });
});
