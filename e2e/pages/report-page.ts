import { expect, type Page } from '@playwright/test';

/** The reports remote: report view, evidence and its analysis form, learner reports. */
export class ReportPage {
  constructor(private readonly page: Page) {}

  evidence(n: number) {
    return this.page.getByRole('article', { name: new RegExp(`^Image ${n}:`) });
  }

  async analyse(n: number, status: 'Accepted' | 'Rejected', reason: string) {
    const evidence = this.evidence(n);
    await evidence.getByRole('button', { name: 'Analyse' }).click();
    await evidence.getByLabel('Analysis status').selectOption({ label: status });
    await evidence.getByLabel('Reason').fill(reason);
    await evidence.getByRole('button', { name: 'Save' }).click();
    await expect(evidence.getByText(reason)).toBeVisible();
  }

  /** An educator's comment on image `n` (issue #23 point 3). */
  async commentImage(n: number, comment: string) {
    const evidence = this.evidence(n);
    await evidence.getByRole('textbox', { name: 'Comment on this image' }).fill(comment);
    await evidence.getByRole('button', { name: 'Save comment' }).click();
    await expect(evidence.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  }

  /** An educator's override of one criterion's mark of image `n`, by keyboard. */
  async overrideMark(n: number, criterion: string, mark: string, reason: string) {
    const evidence = this.evidence(n);
    await evidence.getByRole('button', { name: `Override mark: ${criterion}` }).press('Enter');
    const form = evidence.getByRole('form', { name: `Override the mark for ${criterion}` });
    await form.getByLabel(/New mark/).fill(mark);
    await form.getByLabel(/Reason for the override/).fill(reason);
    await form.getByRole('button', { name: 'Save override' }).press('Enter');
    await expect(evidence.getByText(`: ${reason}`)).toBeVisible();
  }

  /** "Release grade" on a report whose grade waits for review (issue #23 point 2). */
  async releaseGrade() {
    await this.page.getByRole('button', { name: 'Release grade' }).click();
    await expect(this.page.getByRole('status').filter({ hasText: 'The grade was released to the learning platform.' })).toBeVisible();
  }

  /**
   * Cohort insight (/report/insight) narrowed to one learner with the screen's filter, then their
   * row's link to their reports.
   */
  async openLearnerFromInsight(name: string) {
    await this.page.goto('/report/insight');
    await expect(this.page.getByRole('heading', { name: 'Cohort insight', level: 1 })).toBeVisible();
    await this.page.getByLabel('Learner', { exact: true }).selectOption({ label: name });
    await this.page.getByRole('button', { name: 'Apply filters' }).click();
    await this.page.getByRole('link', { name: `Reports of ${name}`, exact: true }).click();
    // The list is narrowed to this learner by id (not a search for the name, which finds namesakes).
    await expect(this.page).toHaveURL(/\/report\/learner\?learner=[0-9a-f-]{36}$/);
    await expect(this.page.getByRole('group', { name: `Reports of ${name}`, exact: true })).toBeVisible();
  }

  /** The learner reports list's "View report" link of one report (the session's uuid). */
  viewReportLink(reportId: string) {
    return this.page.getByRole('link', { name: 'View report' }).and(this.page.locator(`[href$="/report/${reportId}"]`));
  }

  /** The evidence shown on the current page of the report. */
  shownEvidence() {
    return this.page.getByRole('article', { name: /^Image \d+:/ });
  }

  evidencePages() {
    return this.page.getByRole('navigation', { name: 'Pagination' });
  }

  async goToEvidencePage(n: number) {
    await this.evidencePages().getByRole('button', { name: `Page ${n}`, exact: true }).click();
    await expect(this.page.getByRole('status').filter({ hasText: /^Evidence page/ })).toContainText(`Evidence page ${n} of`);
  }

  async openLearnerReports() {
    await this.page.goto('/report/learner');
    await expect(this.page.getByRole('searchbox', { name: 'Search' })).toBeVisible();
  }

  async search(text: string) {
    await this.page.getByRole('searchbox', { name: 'Search' }).fill(text);
  }
}
