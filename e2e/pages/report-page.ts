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
