import type { BrowserContext, Page } from '@playwright/test';
import { ALT_HOST_URL } from '../playwright.config';
import { test, expect } from '../fixtures';

// Issue #7: the launch link must come from the product record, never from the launch query. The
// second host runs with SIMULATOR_URL='' (production mode: the product's own app scheme), where a
// crafted `protocol` once ran script on the portal's origin or sent the session token elsewhere.
test.use({ baseURL: ALT_HOST_URL });

const LAUNCH = '/lti/simulation/launch';
const launchQuery = (protocol: string, productId = 1) =>
  `?launchId=x&productId=${productId}&mode=Desktop&configuration=radiography.lower-limb.foot&protocol=${protocol}`;
const XSS = launchQuery(encodeURIComponent('javascript:alert(document.domain)//'));
const ATTACKER = 'attacker.example';
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Everything a hostile launch link could make the browser do: script dialogs, navigations of any
 * frame of any page (popups included) and requests, recorded for the whole context. Requests to
 * the attacker's host are answered here, so a leak is seen without a real DNS lookup.
 */
async function watchForEscapes(context: BrowserContext, page: Page) {
  const dialogs: string[] = [];
  const navigations: string[] = [];
  const foreignRequests: string[] = [];
  const popups: string[] = [];

  const watchPage = (p: Page) => {
    p.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
    p.on('framenavigated', (frame) => navigations.push(frame.url()));
  };
  watchPage(page);
  context.on('page', (p) => {
    popups.push(p.url());
    watchPage(p);
  });
  context.on('request', (request) => {
    const { protocol, hostname } = new URL(request.url());
    if ((protocol === 'http:' || protocol === 'https:') && !LOCAL_HOSTS.has(hostname))
      foreignRequests.push(request.url());
  });
  // A predicate, not a glob: `**://attacker.example/**` also matches the portal's own launch URL,
  // whose query names the attacker.
  await context.route(
    (url) => url.hostname === ATTACKER,
    (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'stolen' }),
  );

  return {
    dialogs,
    popups,
    foreignRequests,
    /** Navigations to anything but the portal's own origins (about:blank of a new frame aside). */
    foreignNavigations: () =>
      navigations.filter((url) => {
        if (url === 'about:blank') return false;
        const { protocol, hostname } = new URL(url);
        return !(protocol === 'http:' || protocol === 'https:') || !LOCAL_HOSTS.has(hostname);
      }),
  };
}

/** The session the launch screen creates: the API accepts any launchId today, `x` included. */
function sessionCreated(page: Page) {
  return page.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      /\/api\/v1\/product\/\d+\/session$/.test(new URL(response.url()).pathname),
  );
}

test.beforeEach(async ({ portal }) => {
  await portal.signInAt('/simulation', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();
});

test("a javascript: protocol in the launch query runs nothing: the link uses the product's own scheme", async ({
  context,
  page,
}) => {
  const watch = await watchForEscapes(context, page);
  const created = sessionCreated(page);

  await page.goto(`${LAUNCH}${XSS}`);

  // The learning platform's launch id is accepted, so the launch is real; only its link is ours.
  expect((await created).status()).toBe(201);
  // Soft: a wrong link must still let the checks below report what it did.
  await expect
    .soft(page.getByRole('link', { name: 'Open the simulator' }))
    .toHaveAttribute('href', /^vmc-radiography:\/\/launch\?token=[^&]+&session=[0-9a-f-]{36}$/);
  // Nothing takes the app's focus on this machine: the launch ends as "not installed", on the
  // portal's own origin, and no script of the query ever ran.
  await expect
    .soft(page.getByRole('heading', { name: 'Simulation not installed' }))
    .toBeVisible({ timeout: 20_000 });
  expect(new URL(page.url()).origin).toBe(ALT_HOST_URL);
  expect(watch.dialogs).toEqual([]);
  expect(watch.popups).toEqual([]);
  expect(watch.foreignNavigations()).toEqual([]);
  expect(watch.foreignRequests).toEqual([]);
});

test('a javascript: launch for a product the learner cannot see shows the problem page and starts nothing', async ({
  context,
  page,
}) => {
  const watch = await watchForEscapes(context, page);
  const sessions: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/session$/.test(request.url()))
      sessions.push(request.url());
  });

  await page.goto(
    `${LAUNCH}${launchQuery(encodeURIComponent('javascript:alert(document.domain)//'), 999)}`,
  );

  await expect(page.getByRole('heading', { name: 'Problem starting simulation' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(/This simulation is not available to you/);
  // Past the launch timeout: nothing starts late either.
  await page.waitForTimeout(5_000);
  await expect(page.getByRole('heading', { name: 'Problem starting simulation' })).toBeVisible();
  expect(sessions).toEqual([]);
  expect(watch.dialogs).toEqual([]);
  expect(watch.foreignNavigations()).toEqual([]);
});

for (const [form, protocol] of [
  ['encoded', encodeURIComponent(`https://${ATTACKER}/c?x=`)],
  ['as typed', `https://${ATTACKER}/c?x=`],
] as const) {
  test(`an https protocol (${form}) in the launch query never sends the browser or the token to another origin`, async ({
    context,
    page,
  }) => {
    const watch = await watchForEscapes(context, page);
    const created = sessionCreated(page);

    await page.goto(`${LAUNCH}${launchQuery(protocol)}`);

    const session = (await (await created).json()) as { token: string; uuid: string };
    const openLink = page.getByRole('link', { name: 'Open the simulator' });
    // Soft: a wrong link must still let the checks below report where the browser went.
    await expect.soft(openLink).toHaveAttribute('href', /^vmc-radiography:\/\/launch\?/);
    const href = await openLink.getAttribute('href', { timeout: 1_000 }).catch(() => null);
    // The token goes to the product's app and nowhere else.
    const link = new URL(href ?? 'about:blank');
    expect.soft(link.protocol).toBe('vmc-radiography:');
    expect.soft(link.hostname).toBe('launch');
    expect.soft(Object.fromEntries(link.searchParams)).toEqual({
      token: session.token,
      session: session.uuid,
    });
    await expect
      .soft(page.getByRole('heading', { name: 'Simulation not installed' }))
      .toBeVisible({ timeout: 20_000 });

    expect(new URL(page.url()).origin).toBe(ALT_HOST_URL);
    expect(watch.popups).toEqual([]);
    expect(watch.foreignNavigations()).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
    expect(watch.dialogs).toEqual([]);
  });
}
