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
