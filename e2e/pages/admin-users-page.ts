import { expect, type Page } from '@playwright/test';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface CsvUser {
  firstName: string;
  lastName: string;
  email: string;
}

/** remote-admin: an organisation's users tab and the bulk add from a CSV file. */
export class AdminUsersPage {
  constructor(readonly page: Page) {}

  table() {
    return this.page.getByRole('table', { name: 'Users' });
  }

  form() {
    return this.page.getByRole('form', { name: 'Add users' });
  }

  /** The rows of the page shown, by their Edit (or View) link, so "No records found" counts none. */
  private rows() {
    return this.table().getByRole('link', { name: /^(Edit|View) / });
  }

  /**
   * How many users the list holds, as the tab shows them: the rows of a full first page times the
   * pages before the last, plus the last page's rows. From the list's first page; leaves it on
   * its last.
   */
  async count(): Promise<number> {
    await expect(this.rows().first().or(this.table().getByText('No records found'))).toBeVisible();
    await expect(this.table()).not.toHaveAttribute('aria-busy', 'true');
    const pages = this.page
      .getByRole('navigation', { name: 'Pagination' })
      .getByRole('button', { name: /^Page \d+$/ });
    if ((await pages.count()) > 1) await expect(pages.first()).toHaveAttribute('aria-current', 'page');
    const perPage = await this.rows().count();
    if ((await pages.count()) <= 1) return perPage;
    const last = pages.last();
    const lastPage = Number(await last.textContent());
    const firstRow = await this.rows().first().textContent();
    await last.click();
    await expect(last).toHaveAttribute('aria-current', 'page');
    // The page before stays shown until the next one has arrived.
    await expect(this.rows().first()).not.toHaveText(firstRow ?? '');
    await expect(this.table()).not.toHaveAttribute('aria-busy', 'true');
    return (lastPage - 1) * perPage + (await this.rows().count());
  }

  async search(text: string) {
    await this.page.getByRole('searchbox', { name: 'Search users' }).fill(text);
  }

  async openBulkAdd() {
    await this.page.getByRole('link', { name: 'Add users' }).click();
    await expect(this.form()).toBeVisible();
  }

  /** Writes the users to a real CSV file and uploads it through the file field. */
  async uploadCsv(users: readonly CsvUser[]) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portal-e2e-users-'));
    const file = path.join(dir, `users-${users.length}.csv`);
    const lines = ['firstName,lastName,email', ...users.map((u) => `${u.firstName},${u.lastName},${u.email}`)];
    await fs.writeFile(file, lines.join('\n') + '\n', 'utf8');
    await this.form().getByLabel('Users file (CSV)').setInputFiles(file);
    await expect(this.form().getByText(path.basename(file))).toBeVisible();
    await expect(this.form().getByText('Uploaded', { exact: true })).toBeVisible();
    await fs.rm(dir, { recursive: true, force: true });
  }

  /** The licence option reads "name (n of m seats available, expires …)": picked by its name. */
  async chooseLicence(name: string) {
    const select = this.form().getByRole('combobox', { name: 'Licence', exact: true });
    // A closed <select>'s options are not in the accessibility tree, so they are read as text.
    const label = (await select.locator('option').allTextContents()).find((text) => text.startsWith(`${name} (`));
    if (!label) throw new Error(`no licence option ${name}`);
    await select.selectOption({ label });
  }

  async chooseRole(role: string) {
    await this.form().getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: role });
  }

  async submit() {
    await this.form().getByRole('button', { name: 'Add users' }).click();
  }
}
