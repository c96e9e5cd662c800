import type { Browser, Page } from '@playwright/test';
import type { Organisation, PagedResult } from '@portal/contract';
import { test, expect } from '../fixtures';
import { callApiAs, expectNoAxeViolations, WCAG22_AND_BEST_PRACTICE_TAGS } from '../pages/axe';
import { PortalPage } from '../pages/portal-page';
import { demoAccount, SignInPage } from '../pages/sign-in-page';

// Issue #20 point 6: a deactivated organisation's members see whom to contact instead of the
// portal, in their own language; reactivation lets them back in at once.

async function signedIn(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await new PortalPage(page).signInAt('/support', 'sysadmin@demo.test');
  return { context, page };
}

async function otherCollege(page: Page) {
  const response = await callApiAs(page, 'GET', '/api/v1/organisation?pageSize=100&filter=Other%20College');
  expect(response.status()).toBe(200);
  const found = ((await response.json()) as PagedResult<Organisation>).results.find((o) => o.name === 'Other College');
  if (!found) throw new Error('no Other College in the demo data');
  return found;
}

test('a learner of a deactivated organisation sees in German whom to contact, and is let back in once it is reactivated', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await signedIn(browser);
  const { id, ...organisation } = await otherCollege(admin.page);
  const setActive = async (isActive: boolean) => {
    const input = { ...organisation, mainContact: organisation.mainContact ?? 'Sekretariat', isActive };
    const response = await callApiAs(admin.page, 'PUT', `/api/v1/organisation/${id}`, input);
    expect(response.status(), await response.text()).toBe(200);
  };

  const context = await browser.newContext();
  const page = await context.newPage();
  await setActive(false);
  try {
    await page.goto('/simulation');
    await new SignInPage(page).signIn('learner@other.test');

    await expect(page.getByRole('heading', { level: 1, name: 'Ihre Organisation ist deaktiviert' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByText(/Other College wurde deaktiviert/)).toBeVisible();
    await expect(page.getByRole('link', { name: /^support@/ })).toBeVisible();
    for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size);
      await expectNoAxeViolations(page, `organisation deactivated page, ${size.width}px`, WCAG22_AND_BEST_PRACTICE_TAGS);
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await setActive(true);
    await page.getByRole('button', { name: 'Erneut versuchen' }).click();
    const { firstName, lastName } = demoAccount('learner@other.test');
    await expect(page.getByText(`Willkommen, ${firstName} ${lastName}`)).toBeVisible();
  } finally {
    await setActive(true);
    await context.close();
    await admin.context.close();
  }
});
