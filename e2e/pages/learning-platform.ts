import { expect, type Browser, type Page } from '@playwright/test';
import type { Score } from '@portal/lms';
import { freshBrowser } from './fresh-browser';
import type { PortalPage } from './portal-page';
import { SimulatorPage } from './simulator-page';
import type { DemoEmail } from './sign-in-page';

// The learning-platform stand-in (lms/, :8100). The e2e stack addresses it as 127.0.0.1
// (scripts/services.mjs), another site than the portal on localhost, as a real platform is.
export const LMS_URL = process.env.LMS_URL ?? 'http://127.0.0.1:8100';

/** What the stand-in's AGS endpoint received for one line item (its /test/scores endpoint). */
export interface ReceivedScores {
  lineItem: string;
  label: string;
  resourceLinkId: string;
  scores: Score[];
}

/** Who can sign in to the stand-in: the demo accounts and Lena Learner2, who exists only there. */
export type LmsEmail = DemoEmail | 'learner2@demo.test';

/** The stand-in's sign-in and its Demo course page. */
export class LmsPage {
  constructor(readonly page: Page) {}

  async signIn(email: LmsEmail, password = 'demo1234') {
    await this.page.goto(`${LMS_URL}/login`);
    await this.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(this.page.getByRole('heading', { name: 'Demo course' })).toBeVisible();
  }

  /** A course link's new-window launch ("Launch Radiography"). */
  launchButton(title: string) {
    return this.page.getByRole('button', { name: `Launch ${title}`, exact: true });
  }
}

/** A browser of its own, signed in to the stand-in (not yet to the portal), on the Demo course. */
export async function signedInToPlatform(browser: Browser, email: LmsEmail) {
  const fresh = await freshBrowser(browser);
  const lms = new LmsPage(fresh.page);
  await lms.signIn(email);
  return { ...fresh, lms };
}

/**
 * A learner presses a course link's launch button (`title`): the launch signs her in (no sign-in
 * form) and opens the launch screen, which starts the simulator; she takes two images and finishes.
 */
export async function completeLaunchedSession(
  learner: { page: Page; portal: PortalPage },
  title: string,
) {
  // Listening before the click: with her cookie choice already stored, the launch screen opens the
  // simulator as soon as it loads, before any later listener would hear it.
  const popup = learner.page.waitForEvent('popup', { timeout: 60_000 });
  await learner.page.getByRole('button', { name: `Launch ${title}`, exact: true }).click();
  await expect(learner.page).toHaveURL(/\/lti\/simulation\/launch/, { timeout: 20_000 });
  await expect(learner.page.getByRole('textbox', { name: 'Email' })).toHaveCount(0);
  await learner.portal.acceptCookiesIfAsked();
  const simulator = new SimulatorPage(await popup);
  await simulator.expectJoined('Radiography');
  await simulator.takeImages(2);
  await simulator.finish();
  await simulator.page.close();
}

/**
 * A signed-out user lands on the identity provider's sign-in (or on the LTI page's own "Please log
 * in" first), and comes back to the same portal URL.
 */
export async function logInToPortal(page: Page, portal: PortalPage, email: DemoEmail) {
  const prompt = page.getByRole('heading', { name: 'Please log in' });
  await expect(prompt.or(page.getByRole('textbox', { name: 'Email' }))).toBeVisible();
  if (await prompt.isVisible()) await page.getByRole('button', { name: 'Log in' }).click();
  await portal.signInPage.signIn(email);
}

/** What the stand-in's AGS endpoints received, per line item (its test endpoint). */
export async function receivedScores(): Promise<ReceivedScores[]> {
  return (await (await fetch(`${LMS_URL}/test/scores`)).json()) as ReceivedScores[];
}

/** The score `userId` holds on the line item of course link `resourceLinkId`, if any. */
export async function receivedScore(resourceLinkId: string, userId: string): Promise<Score | null> {
  const item = (await receivedScores()).find((i) => i.resourceLinkId === resourceLinkId);
  return item?.scores.find((s) => s.userId === userId) ?? null;
}

/** The course's links as the stand-in keeps them (its test endpoint). */
export async function courseLinks(): Promise<Array<{ id: string; title: string }>> {
  return (await (await fetch(`${LMS_URL}/test/links`)).json()) as Array<{ id: string; title: string }>;
}

/** The gradebook's row of one learner under one course link, as the signed-in user sees it. */
export async function gradebookRow(page: Page, linkTitle: string, learnerName: string) {
  await page.goto(`${LMS_URL}/gradebook`);
  return page.getByRole('table', { name: linkTitle, exact: true }).getByRole('row', { name: new RegExp(`^${learnerName}\\b`) });
}

/**
 * The host's "Grades" panel on an instructor's launch page (/lti/launch): when the course's grades
 * go to the platform — "automatic", "after review" or the organisation's default.
 */
export async function chooseCourseGradeRelease(page: Page, choice: string | RegExp) {
  const panel = page.getByRole('region', { name: 'Grades' });
  await panel.getByRole('radio', { name: choice }).check();
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('status')).toContainText('Saved:');
}
