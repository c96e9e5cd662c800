import { expect, type Page } from '@playwright/test';

/** remote-admin: the organisation list, the new-organisation form and one organisation's tabs. */
export class AdminOrganisationPage {
  constructor(readonly page: Page) {}

  async openList() {
    await this.page.goto('/admin/organisation');
    await expect(this.page.getByRole('heading', { name: 'Organisations', level: 1 })).toBeVisible();
  }

  table() {
    return this.page.getByRole('table', { name: 'Organisations' });
  }

  async search(text: string) {
    await this.page.getByRole('searchbox', { name: 'Search organisations' }).fill(text);
  }

  /** Fills the §5 required fields and creates it; the list then says it was added. */
  async create(name: string) {
    await this.openList();
    await this.page.getByRole('link', { name: 'New organisation' }).click();
    const form = this.page.getByRole('form', { name: 'New organisation' });
    await form.getByLabel('Organisation name').fill(name);
    await form.getByLabel('Country').selectOption({ label: 'Germany' });
    await form.getByLabel('Main contact').fill('Dr. Erika Muster');
    await form.getByLabel('Learning management system').selectOption({ label: 'Moodle' });
    await form.getByLabel('Default language').selectOption({ label: 'English' });
    await form.getByLabel('Radiation unit system').selectOption({ label: 'SI' });
    await form.getByLabel('Measurement standard').selectOption({ label: 'Metric' });
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(this.page.getByText(`Organisation ${name} added successfully`)).toBeVisible();
  }

  /** Opens the organisation from the list by its edit link; returns its id from the URL. */
  async open(name: string): Promise<number> {
    await this.search(name);
    await this.table().getByRole('link', { name: `Edit ${name}` }).click();
    await expect(this.page.getByRole('heading', { name, level: 1 })).toBeVisible();
    const match = /\/admin\/organisation\/(\d+)$/.exec(new URL(this.page.url()).pathname);
    if (!match) throw new Error(`not an organisation page: ${this.page.url()}`);
    return Number(match[1]);
  }

  async openTab(name: 'Organisation details' | 'Licences' | 'Users' | 'Activity') {
    await this.page.getByRole('navigation', { name: 'Organisation sections' }).getByRole('link', { name }).click();
  }
}
