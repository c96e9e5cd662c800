import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '@portal/api/test/helper';
import { startLms, USERS, type RunningLms } from '../src/index';

/**
 * The real portal API and the stand-in over HTTP on loopback: the Launch button's whole journey
 * (login initiation → auth → id_token form post → the host's /lti/launch), with the platform
 * registration the API's demo seed makes for the stand-in.
 */

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A browser's cookies, per origin, enough for this journey. */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();
  async go(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const { origin } = new URL(url);
    const cookies = this.jar.get(origin) ?? new Map<string, string>();
    const response = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
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
    return { response, location: location ? new URL(location, url).toString() : null, body: await response.text() };
  }
}

/** The auto-posted form of the platform's auth response: its action and hidden fields. */
function formOf(page: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  assert.ok(action, `no form in ${page.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[match[1]!] = match[2]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  return { action: action.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))), fields };
}

describe('a launch from the stand-in into the real portal API', () => {
  let api: TestApp;
  let lms: RunningLms;
  let apiUrl: string;
  const savedLmsUrl = process.env.LMS_URL;

  before(async () => {
    const port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    lms = await startLms({ portalUrl: apiUrl, testEndpoints: true });
    // The demo seed registers the stand-in at LMS_URL, as scripts/services.mjs sets it.
    process.env.LMS_URL = lms.url;
    api = await buildTestApp({ portalUrl: apiUrl });
    await api.app.listen({ port, host: '127.0.0.1' });
  });
  after(async () => {
    if (savedLmsUrl === undefined) delete process.env.LMS_URL;
    else process.env.LMS_URL = savedLmsUrl;
    await api.close();
    await lms.close();
  });

  async function launch(userId: string, linkId = 'link-1', client = { clientId: 'portal-tool', deploymentId: 'demo-deployment' }) {
    const browser = new Browser();
    const signIn = await browser.go(`${lms.url}/login`, { form: { user: userId, return: '/course' } });
    assert.equal(signIn.response.status, 303);
    const course = await browser.go(`${lms.url}/course`);
    assert.match(course.body, /Launch Radiography/);
    const button = await browser.go(`${lms.url}/course/links/${linkId}/launch`, { form: {} });
    assert.equal(button.response.status, 303);
    const login = new URL(button.location!);
    assert.equal(`${login.origin}${login.pathname}`, `${apiUrl}/api/lti/login`);
    assert.equal(login.searchParams.get('iss'), lms.url);
    assert.equal(login.searchParams.get('login_hint'), userId);
    assert.equal(login.searchParams.get('client_id'), client.clientId);
    assert.equal(login.searchParams.get('lti_deployment_id'), client.deploymentId);
    const toAuth = await browser.go(button.location!);
    assert.equal(toAuth.response.status, 302, toAuth.body);
    assert.ok(toAuth.location!.startsWith(`${lms.url}/lti/auth?`));
    const auth = await browser.go(toAuth.location!);
    assert.equal(auth.response.status, 200, auth.body);
    const post = formOf(auth.body);
    assert.equal(post.action, `${apiUrl}/api/lti/launch`);
    return browser.go(post.action, { form: post.fields });
  }

  it('Launch Radiography lands in the host launch with the link\'s parameters, for the user the platform named', async () => {
    const landed = await launch('101');
    assert.equal(landed.response.status, 302);
    const target = new URL(landed.location!);
    assert.equal(`${target.origin}${target.pathname}`, `${apiUrl}/lti/launch`, landed.location!);
    const launchId = target.searchParams.get('launchId');
    assert.ok(launchId);
    assert.equal(target.searchParams.get('configuration'), 'radiography.lower-limb.knee');
    assert.equal(target.searchParams.get('protocol'), 'vmc-radiography');
    assert.equal(target.searchParams.get('mode'), 'Desktop');
    // The first link's product id is the seeded catalogue's Radiography, with that leaf.
    const product = (await api.db.query<{ id: number; protocol: string }>("select id, protocol from products where code = 'radiography'")).rows[0]!;
    assert.equal(target.searchParams.get('productId'), String(product.id));
    const leaf = await api.db.query('select 1 from product_categories where simulation_configuration = $1 and product_id = $2', ['radiography.lower-limb.knee', product.id]);
    assert.equal(leaf.rows.length, 1);
    const recorded = (
      await api.db.query<{ platform_sub: string; brightspace_user_id: string; email: string; custom: Record<string, string>; ags_endpoint: { lineitem: string }; roles: string[] }>(
        'select l.platform_sub, l.brightspace_user_id, u.email, l.custom, l.ags_endpoint, l.roles from lti_launches l join users u on u.id = l.user_id where l.id = $1',
        [launchId],
      )
    ).rows[0]!;
    assert.equal(recorded.platform_sub, '101');
    assert.equal(recorded.brightspace_user_id, '101');
    assert.equal(recorded.email, 'learner@demo.test');
    assert.equal(recorded.custom.productId, String(product.id));
    assert.equal(recorded.ags_endpoint.lineitem, `${lms.url}/ags/lineitems/1`);
    assert.deepEqual(recorded.roles, ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner']);
  });

  it('a learner only the platform knows becomes a portal user of Demo Hospital just in time', async () => {
    const landed = await launch('106');
    assert.equal(new URL(landed.location!).pathname, '/lti/launch', landed.location!);
    const user = (
      await api.db.query<{ first_name: string; organisation: string }>(
        'select u.first_name, o.name as organisation from users u join organisations o on o.id = u.organisation_id where u.email = $1',
        ['learner2@demo.test'],
      )
    ).rows[0];
    assert.equal(user?.organisation, 'Demo Hospital');
  });

  it("Demo Brightspace College's learner launches through the college's own client; the launch is the college's", async () => {
    const bella = USERS.find((u) => u.email === 'learner@brightspace.test')!;
    assert.equal(bella.institution, 'Demo Brightspace College');
    const landed = await launch(bella.id, 'link-1', { clientId: 'portal-tool-brightspace', deploymentId: 'brightspace-deployment' });
    const target = new URL(landed.location!);
    assert.equal(target.pathname, '/lti/launch', landed.location!);
    const recorded = (
      await api.db.query<{ email: string; client_id: string; organisation: string; user_organisation: string }>(
        `select u.email, p.client_id, o.name as organisation, uo.name as user_organisation
           from lti_launches l join lti_platforms p on p.id = l.platform_id
           join organisations o on o.id = p.organisation_id
           join users u on u.id = l.user_id join organisations uo on uo.id = u.organisation_id
          where l.id = $1`,
        [target.searchParams.get('launchId')],
      )
    ).rows[0];
    assert.deepEqual(recorded, {
      email: 'learner@brightspace.test',
      client_id: 'portal-tool-brightspace',
      organisation: 'Demo Brightspace College',
      user_organisation: 'Demo Brightspace College',
    });
  });

  it('the instructor\'s Add a simulation is a deep linking request the portal sends to its picker', async () => {
    const browser = new Browser();
    await browser.go(`${lms.url}/login`, { form: { user: '102' } });
    const button = await browser.go(`${lms.url}/course/deep-link`, { form: {} });
    const toAuth = await browser.go(button.location!);
    const auth = await browser.go(toAuth.location!);
    const post = formOf(auth.body);
    const landed = await browser.go(post.action, { form: post.fields });
    const target = new URL(landed.location!);
    assert.equal(target.pathname, '/lti/deep-link', landed.location!);
    const recorded = (
      await api.db.query<{ message_type: string; deep_linking_settings: { deep_link_return_url: string; accept_types: string[] } }>(
        'select message_type, deep_linking_settings from lti_launches where id = $1',
        [target.searchParams.get('launchId')],
      )
    ).rows[0]!;
    assert.equal(recorded.message_type, 'LtiDeepLinkingRequest');
    assert.equal(recorded.deep_linking_settings.deep_link_return_url, `${lms.url}/lti/deep-link-return`);
    assert.deepEqual(recorded.deep_linking_settings.accept_types, ['ltiResourceLink']);
  });
});
