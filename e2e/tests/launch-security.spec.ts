import type { BrowserContext, Page } from '@playwright/test';
import { ALT_HOST_URL } from '../playwright.config';
import { test, expect } from '../fixtures';

// Issue #7: the launch link must come from the product record, never from the launch query. The
// second host runs with SIMULATOR_URL='' (production mode: the product's own app scheme), where a
// crafted `protocol` once ran script on the portal's origin or sent the session token elsewhere.
// Since issue #25 the query's `protocol` may pick another scheme on the product's allow-list
// (Product.launchProtocols), and the link is built from that entry.
test.use({ baseURL: ALT_HOST_URL });

const LAUNCH = '/lti/simulation/launch';
// No launchId: since issue #10 a session names only a real, recent launch of the learner's (404
// otherwise), and these tests are about the launch link, not the learning platform.
const launchQuery = (protocol: string, productId = 1) =>
  `?productId=${productId}&mode=Desktop&configuration=radiography.lower-limb.foot&protocol=${protocol}`;
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

/** Every session the page asks for, to prove a refused launch starts none. */
function recordSessionRequests(page: Page) {
  const sessions: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/v1\/product\/\d+\/session$/.test(request.url()))
      sessions.push(request.url());
  });
  return sessions;
}

test.beforeEach(async ({ portal }) => {
  await portal.signInAt('/simulation', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();
});

const refused: [string, string, number][] = [
  ['the javascript: protocol of the report', XSS, 1],
  ['an https protocol (encoded)', launchQuery(encodeURIComponent(`https://${ATTACKER}/c?x=`)), 1],
  ['an https protocol (as typed)', launchQuery(`https://${ATTACKER}/c?x=`), 1],
  [
    'a javascript: protocol for a product the learner cannot see',
    XSS.replace('productId=1', 'productId=999'),
    999,
  ],
];

for (const [name, query, productId] of refused) {
  test(`a launch query with ${name} shows "Problem starting simulation", starts no session and runs nothing`, async ({
    context,
    page,
  }) => {
    const watch = await watchForEscapes(context, page);
    const sessions = recordSessionRequests(page);

    await page.goto(`${LAUNCH}${query}`);

    await expect(page.getByRole('heading', { name: 'Problem starting simulation' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(
      productId === 999
        ? /This simulation is not available to you/
        : /The launch link of this simulation is not allowed/,
    );
    await expect(page.getByRole('link', { name: 'Open the simulator' })).toHaveCount(0);
    // Past the launch timeout (4 s on this host): nothing starts late either.
    await page.waitForTimeout(5_000);
    await expect(page.getByRole('heading', { name: 'Problem starting simulation' })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(ALT_HOST_URL);
    expect(sessions).toEqual([]);
    expect(watch.dialogs).toEqual([]);
    expect(watch.popups).toEqual([]);
    expect(watch.foreignNavigations()).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });
}

// The seeded radiography product lists its VR build's scheme next to its own; either, named in the
// query, launches with that scheme, the link built from the product's list.
for (const { scheme, title } of [
  {
    scheme: 'vmc-radiography',
    title:
      "a launch query naming the product's own scheme launches, with the link built from the product record",
  },
  {
    scheme: 'vmc-radiography-vr',
    title: 'an allowed alternative protocol from the query launches with that protocol',
  },
]) {
  test(title, async ({ context, page }) => {
    const watch = await watchForEscapes(context, page);
    const created = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        /\/api\/v1\/product\/\d+\/session$/.test(new URL(response.url()).pathname),
    );

    await page.goto(`${LAUNCH}${launchQuery(scheme)}`);

    const response = await created;
    expect(response.status()).toBe(201);
    const session = (await response.json()) as { token: string; uuid: string };
    const href = await page.getByRole('link', { name: 'Open the simulator' }).getAttribute('href');
    // The token goes to the product's app and nowhere else.
    const link = new URL(href ?? 'about:blank');
    expect(link.protocol).toBe(`${scheme}:`);
    expect(link.hostname).toBe('launch');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      token: session.token,
      session: session.uuid,
    });
    // Nothing takes the app's focus on this machine: the launch ends as "not installed".
    await expect(page.getByRole('heading', { name: 'Simulation not installed' })).toBeVisible({
      timeout: 20_000,
    });
    expect(new URL(page.url()).origin).toBe(ALT_HOST_URL);
    expect(watch.dialogs).toEqual([]);
    expect(watch.popups).toEqual([]);
    expect(watch.foreignNavigations()).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });
}
