import { test, expect } from '../fixtures';
import { LMS_URL, signedInToPlatform } from '../pages/learning-platform';
import { LtiCoursePage } from '../pages/lti-course-page';

// Names and Role Provisioning Services (issue #22 point 4, e2e (c)): an instructor launches from
// the stand-in's Demo course (120 members, served in pages of 50), syncs the course roster on the
// portal's launch page, and the organisation's user list grows by the members brought in.
// The administrator's view is the global administrator's (auth.setup's storage state): Demo
// Hospital's own administrator has never answered the cookie notice, which the cookie consent
// spec relies on, and that notice would cover the list.
test.use({ storageState: '.auth/sysadmin.json' });

test('an instructor syncs the course roster from the launch page; the organisation’s user list grows by the members added', async ({
  browser,
  organisations,
  users,
}) => {
  test.setTimeout(60_000);
  // Every member back with their own status, no faults: the course as the stand-in starts it.
  expect((await fetch(`${LMS_URL}/test/nrps/reset`, { method: 'POST' })).status).toBe(200);
  expect(((await (await fetch(`${LMS_URL}/test/nrps`)).json()) as { members: number }).members).toBe(120);

  // Before: Demo Hospital's users as the administration lists them (the stand-in's course maps to
  // Demo Hospital: api/src/demo/demo-lti.ts).
  await organisations.openList();
  await organisations.open('Demo Hospital');
  await organisations.openTab('Users');
  const before = await users.count();

  // The instructor launches; the launch signs them in and their course page shows the roster.
  const instructor = await signedInToPlatform(browser, 'educator@demo.test');
  await instructor.lms.launchButton('Radiography').click();
  await expect(instructor.page).toHaveURL(/\/lti\/launch\?/, { timeout: 20_000 });
  await instructor.portal.acceptCookiesIfAsked();
  const coursePage = new LtiCoursePage(instructor.page);
  await coursePage.expectVisible();
  await expect(instructor.page.getByRole('textbox', { name: 'Email' })).toHaveCount(0);
  await expect(coursePage.rosterSummary()).toHaveText(/^Demo course: \d+ learners?\. (Not synced yet|Last synced .+)\.$/);

  const result = await coursePage.syncNow();
  // Every member of all three pages is accounted for, once.
  expect(result.added + result.reactivated + result.deactivated + result.unchanged + result.refused.length).toBe(120);
  expect(result.deactivated + result.unchanged).toBeGreaterThanOrEqual(4); // the four Inactive members
  // A fresh stack has free seats on Demo Hospital's licence; what did not fit is listed as refused.
  // The demo registration verifies addresses, so a member with a Demo Hospital account's e-mail is
  // linked to it, never refused.
  expect(result.added).toBeGreaterThan(0);
  for (const line of result.refused) {
    expect(line).toMatch(
      /: (no free seat on your organisation's licences|the e-mail address belongs to another organisation's account|linked to another organisation's account)$/,
    );
  }
  await expect(coursePage.rosterSummary()).toHaveText(/^Demo course: [1-9]\d* learners?\. Last synced .+\.$/);
  await instructor.context.close();

  // After: the list has grown by exactly the members added, and a course learner is listed.
  // (Loaded afresh: the list would first show what it read before.)
  await users.page.reload();
  expect(await users.count()).toBe(before + result.added);
  // The course's generated learners have addresses at students.demo.test (lms/README.md), no
  // portal account's: one listed was brought in by a sync.
  await users.search('students.demo.test');
  await expect(users.table().getByRole('row').filter({ hasText: '@students.demo.test' }).first()).toBeVisible();
});
