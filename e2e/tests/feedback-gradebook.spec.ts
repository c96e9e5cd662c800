import { test, expect } from '../fixtures';
import {
  chooseCourseGradeRelease,
  completeLaunchedSession,
  courseLinks,
  gradebookRow,
  logInToPortal,
  receivedScore,
  signedInToPlatform,
} from '../pages/learning-platform';
import { PortalPage } from '../pages/portal-page';
import { ReportPage } from '../pages/report-page';
import type { DemoEmail } from '../pages/sign-in-page';

// Issue #23 point 7 end to end: the Demo course's grades wait for review (set by its instructor in
// the launch page's Grades panel); Lena Learner launches the course's Radiography link from the
// learning-platform stand-in and completes a session with images; her educator finds her through
// cohort insight, comments an image and releases the grade; she is notified and reads the
// feedback, and the stand-in's gradebook holds the computed score with the comment.
// The learner came from a launch: the report opens under /lti/ with the launch's parameters.
const REPORT = /\/report\/([0-9a-f-]{36})(?:\?|$)/;
const LINK_TITLE = 'Radiography';
const LEARNER_ID = '101';

/**
 * Opens a portal page in a browser a launch signed in: the identity provider's form if it asks,
 * the cookie question if this user has not answered it yet.
 */
async function openInPortal(portal: PortalPage, path: string, email: DemoEmail) {
  const { page } = portal;
  await page.goto(path);
  const form = page.getByRole('textbox', { name: 'Email' });
  const heading = page.getByRole('heading', { level: 1 }).first();
  const cookies = page.getByRole('button', { name: 'Allow all' });
  await expect(heading.or(form).or(cookies).first()).toBeVisible();
  if (await form.isVisible()) await portal.signInPage.signIn(email);
  await expect(heading.or(cookies).first()).toBeVisible();
  await portal.acceptCookiesIfAsked();
  await expect(heading).toBeVisible();
}

test('an educator finds the learner in insight, comments an image and releases the grade; the learner is notified and the gradebook shows the score with the comment', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const comment = `Centre on the joint space (${Date.now()}).`;
  const link = (await courseLinks()).find((l) => l.title === LINK_TITLE);
  expect(link, 'the Demo course has its Radiography link').toBeDefined();
  const scoreBefore = await receivedScore(link!.id, LEARNER_ID);

  // The course's instructor (the demo educator) launches the link and sets "after review".
  const instructor = await signedInToPlatform(browser, 'educator@demo.test');
  try {
    await instructor.page.getByRole('button', { name: `Launch ${LINK_TITLE}`, exact: true }).click();
    await expect(instructor.page).toHaveURL(/\/lti\/launch/, { timeout: 20_000 });
    const grades = instructor.page.getByRole('region', { name: 'Grades' });
    await expect(grades.or(instructor.page.getByRole('heading', { name: 'Please log in' })).or(instructor.page.getByRole('textbox', { name: 'Email' }))).toBeVisible();
    if (!(await grades.isVisible())) await logInToPortal(instructor.page, instructor.portal, 'educator@demo.test');
    await expect(grades).toBeVisible();
    await instructor.portal.acceptCookiesIfAsked();
    await chooseCourseGradeRelease(instructor.page, 'after review');

    // The learner launches the same link (a launch signs her in) and completes a session.
    const learner = await signedInToPlatform(browser, 'learner@demo.test');
    await completeLaunchedSession(learner, LINK_TITLE);
    await expect(learner.page).toHaveURL(REPORT, { timeout: 20_000 });
    const reportId = learner.page.url().match(REPORT)![1]!;

    // Marked but held back: the platform hears "pending manual", no score.
    await expect
      .poll(async () => (await receivedScore(link!.id, LEARNER_ID))?.gradingProgress ?? null, { timeout: 30_000 })
      .toBe('PendingManual');
    expect((await receivedScore(link!.id, LEARNER_ID))?.scoreGiven).toBeUndefined();

    // The educator: insight → the learner → her reports → this report; a comment, then release.
    const educator = await instructor.context.newPage();
    const reports = new ReportPage(educator);
    await openInPortal(new PortalPage(educator), '/report/insight', 'educator@demo.test');
    await reports.openLearnerFromInsight('Lena Learner');
    await reports.viewReportLink(reportId).click();
    await expect(educator).toHaveURL(new RegExp(`/report/${reportId}$`));
    await reports.commentImage(1, comment);
    await reports.releaseGrade();

    // The platform gets the computed score with the comment.
    await expect
      .poll(async () => (await receivedScore(link!.id, LEARNER_ID))?.gradingProgress ?? null, { timeout: 30_000 })
      .toBe('FullyGraded');
    const released = (await receivedScore(link!.id, LEARNER_ID))!;
    expect(released.scoreGiven).toEqual(expect.any(Number));
    expect(released.comment).toContain(comment);
    expect(released).not.toEqual(scoreBefore);

    // The learner, in the portal she was signed in to by the launch, is notified and reads it.
    const portalPage = learner.page;
    await openInPortal(learner.portal, '/report', 'learner@demo.test');
    await expect(learner.portal.notificationsButton()).toHaveAccessibleName(/^Notifications, \d+ unread$/);
    await learner.portal.openNotification(/New feedback on your Knee report/);
    await expect(portalPage).toHaveURL(new RegExp(`/report/${reportId}$`));
    const learnerReport = new ReportPage(portalPage);
    await expect(
      learnerReport.evidence(1).getByRole('region', { name: "Educator's feedback on this image" }).getByText(comment),
    ).toBeVisible();

    // Her gradebook at the platform: the score and the comment.
    const row = await gradebookRow(portalPage, LINK_TITLE, 'Lena Learner');
    await expect(row).toContainText(`${released.scoreGiven} / 100`);
    await expect(row).toContainText('Completed, FullyGraded');
    await expect(row).toContainText(comment);
    await learner.context.close();
  } finally {
    // Other specs launch the same course and expect grades to go out at once.
    if (await instructor.page.getByRole('region', { name: 'Grades' }).isVisible().catch(() => false)) {
      await chooseCourseGradeRelease(instructor.page, /^Organisation default/);
    }
    await instructor.context.close();
  }
});
