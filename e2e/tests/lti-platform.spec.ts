import type { Browser, Page } from '@playwright/test';
import { test, expect } from '../fixtures';
import { PortalPage } from '../pages/portal-page';
import { SimulatorPage } from '../pages/simulator-page';
import type { DemoEmail } from '../pages/sign-in-page';

// The learning-platform stand-in (lms/, :8100) and the real portal over LTI 1.3: the instructor
// deep-links a simulation into the course, a learner launches it, signs in to the portal, completes
// it in the simulator, and the score comes back to the platform's gradebook through AGS.
const LMS_URL = process.env.LMS_URL ?? 'http://localhost:8100';

interface ReceivedScores {
  lineItem: string;
  label: string;
  resourceLinkId: string;
  scores: Array<{ userId: string; scoreGiven?: number; scoreMaximum?: number; activityProgress: string; gradingProgress: string }>;
}

/** A browser of its own, signed in to the stand-in (not yet to the portal), on the Demo course. */
async function signedInToPlatform(browser: Browser, email: DemoEmail) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${LMS_URL}/login`);
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Demo course' })).toBeVisible();
  return { context, page, portal: new PortalPage(page) };
}

/**
 * A signed-out user lands on the identity provider's sign-in (or on the LTI page's own "Please log
 * in" first), and comes back to the same portal URL.
 */
async function logInToPortal(page: Page, portal: PortalPage, email: DemoEmail) {
  const prompt = page.getByRole('heading', { name: 'Please log in' });
  await expect(prompt.or(page.getByRole('textbox', { name: 'Email' }))).toBeVisible();
  if (await prompt.isVisible()) await page.getByRole('button', { name: 'Log in' }).click();
  await portal.signInPage.signIn(email);
}

async function receivedScores(): Promise<ReceivedScores[]> {
  return (await (await fetch(`${LMS_URL}/test/scores`)).json()) as ReceivedScores[];
}

test('the instructor deep-links Radiography › Lower limb › Knee › Desktop; a learner launches it, completes it in the simulator, and the score reaches the gradebook', async ({
  browser,
}) => {
  test.setTimeout(180_000);

  const instructor = await signedInToPlatform(browser, 'educator@demo.test');
  await instructor.page.getByRole('button', { name: 'Add a simulation' }).click();
  await logInToPortal(instructor.page, instructor.portal, 'educator@demo.test');
  await instructor.portal.acceptCookiesIfAsked();
  await expect(instructor.page.getByRole('heading', { name: 'Add a simulation to your course' })).toBeVisible();
  await instructor.page.getByLabel('Product').selectOption({ label: 'Radiography' });
  await instructor.page.getByLabel('Category').selectOption({ label: 'Lower limb' });
  await instructor.page.getByLabel('Subcategory (level 2)').selectOption({ label: 'Knee' });
  await instructor.page.getByRole('radio', { name: 'Desktop' }).check();
  await instructor.page.getByRole('button', { name: 'Add to course' }).click();

  // Back in the platform: the course names the new link, with its own line item in the gradebook.
  await expect(instructor.page).toHaveURL(new RegExp(`^${LMS_URL}/course\\?added=`), { timeout: 20_000 });
  const added = instructor.page.getByRole('status');
  await expect(added).toContainText('Added');
  const linkId = new URL(instructor.page.url()).searchParams.get('added')!;
  const title = (await added.textContent())!.match(/“(.+)”/)![1]!;
  expect(title).toMatch(/Knee/);
  const launchButton = `Launch ${title}`;
  await expect(instructor.page.getByRole('button', { name: launchButton })).toBeVisible();
  expect((await receivedScores()).some((item) => item.resourceLinkId === linkId)).toBe(true);
  await instructor.context.close();

  const learner = await signedInToPlatform(browser, 'learner@demo.test');
  await learner.page.getByRole('button', { name: launchButton }).click();
  await logInToPortal(learner.page, learner.portal, 'learner@demo.test');
  const popup = learner.page.waitForEvent('popup');
  await learner.portal.acceptCookiesIfAsked();
  const simulator = new SimulatorPage(await popup);
  await simulator.expectJoined('Radiography');
  await simulator.takeImages(2);
  await simulator.finish();
  await simulator.page.close();

  // The portal's grade outbox posts the score to the link's line item; the learner sees it.
  await expect
    .poll(
      async () => {
        const item = (await receivedScores()).find((i) => i.resourceLinkId === linkId);
        const score = item?.scores.find((s) => s.userId === '101');
        return score ? `${score.activityProgress} ${score.gradingProgress} ${score.scoreMaximum}` : null;
      },
      { timeout: 60_000 },
    )
    .toBe('Completed FullyGraded 100');
  await learner.page.goto(`${LMS_URL}/gradebook`);
  const row = learner.page.getByRole('table', { name: title }).getByRole('row', { name: /Lena Learner/ });
  await expect(row).toContainText('Completed, FullyGraded');
  await expect(row).toContainText('/ 100');
  await learner.context.close();
});
