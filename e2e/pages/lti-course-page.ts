import { expect, type Page } from '@playwright/test';

/** What the roster panel announces after a sync ("Added 3, reactivated 0, …" and who was refused). */
export interface RosterSyncResult {
  added: number;
  reactivated: number;
  deactivated: number;
  unchanged: number;
  /** As listed: "<name>: <reason>". */
  refused: string[];
}

/**
 * An instructor's `/lti/launch` page (host): their course in the portal, with the course roster
 * (Names and Role Provisioning Services) and its Sync now, the grade release, and Continue.
 */
export class LtiCoursePage {
  constructor(readonly page: Page) {}

  async expectVisible() {
    await expect(this.page.getByRole('heading', { name: 'Your course in the portal', level: 1 })).toBeVisible();
  }

  roster() {
    return this.page.getByRole('region', { name: 'Course roster' });
  }

  /** "Demo course: 4 learners. Last synced …" */
  rosterSummary() {
    return this.roster().getByText(/learners?\./);
  }

  rosterStatus() {
    return this.roster().getByRole('status');
  }

  /** Presses Sync now and reads the result the status announces once the sync has finished. */
  async syncNow(): Promise<RosterSyncResult> {
    await this.roster().getByRole('button', { name: 'Sync now' }).click();
    const result = this.rosterStatus().getByText(/^Added \d+, reactivated \d+, deactivated \d+, unchanged \d+\.$/);
    await expect(result).toBeVisible({ timeout: 30_000 });
    const [added, reactivated, deactivated, unchanged] = ((await result.textContent()) ?? '')
      .match(/\d+/g)!
      .map(Number) as [number, number, number, number];
    const refused = await this.rosterStatus().getByRole('listitem').allTextContents();
    if (refused.length > 0) {
      await expect(this.rosterStatus()).toContainText(
        `${refused.length} ${refused.length === 1 ? 'member' : 'members'} could not be added:`,
      );
    }
    return { added, reactivated, deactivated, unchanged, refused };
  }
}
