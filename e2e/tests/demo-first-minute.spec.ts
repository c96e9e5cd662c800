import { test, expect } from '../fixtures';
import { freshBrowser } from '../pages/fresh-browser';

// Issue #25 point 6: a newcomer's first sign-in after `npm start`, where Brightspace is on. Demo
// Hospital's learner goes from the portal's sign-in straight to their home page; only Demo
// Brightspace College's learners and educators are sent on to Brightspace (the stand-in). Runs in
// the PORTAL_BRIGHTSPACE=1 pass (e2e/package.json): without Brightspace nobody is sent anywhere.
// The e2e stack addresses the stand-in as 127.0.0.1 (scripts/services.mjs).
const LMS_URL = process.env.LMS_URL ?? 'http://127.0.0.1:8100';

test(
  "the demo learner lands on Simulations right after the portal's sign-in, with no learning-platform sign-in in between",
  { tag: '@brightspace' },
  async ({ browser }) => {
    test.skip(process.env.PORTAL_BRIGHTSPACE !== '1', 'run with PORTAL_BRIGHTSPACE=1 (Brightspace on in the stack)');

    const { context, page, portal } = await freshBrowser(browser);
    const config = (await (await page.request.get('/config.json')).json()) as { brightspaceHost: string | null };
    expect(config.brightspaceHost).toBe(LMS_URL);
    const left: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().startsWith(LMS_URL)) left.push(frame.url());
    });
    page.on('request', (request) => {
      if (request.url().includes('/brightspace-auth')) left.push(request.url());
    });
    const whoami = page.waitForResponse((response) => response.url().endsWith('/api/v1/user/whoami') && response.ok());

    await portal.signInAt('/', 'learner@demo.test');
    // The guard decides on this answer, in the render that shows the user's name.
    expect(await (await whoami).json()).toMatchObject({ isBrightspaceAuthRequired: false, brightspaceUserMismatch: false });
    await portal.acceptCookiesIfAsked();
    await expect(page).toHaveURL(/\/simulation$/);
    await expect(page.getByRole('heading', { name: 'Simulations' })).toBeVisible();
    expect(left).toEqual([]);
    await context.close();

    // The same first minute for Demo Brightspace College's learner does meet Brightspace's sign-in.
    const college = await freshBrowser(browser);
    await college.page.goto('/');
    await college.portal.signInPage.signIn('learner@brightspace.test');
    await expect(college.page.getByRole('heading', { name: 'Sign in to the learning platform' })).toBeVisible();
    expect(college.page.url().startsWith(`${LMS_URL}/login`)).toBe(true);
    await college.context.close();
  },
);
