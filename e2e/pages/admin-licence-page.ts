import { expect, type Page } from '@playwright/test';

export interface NewLicence {
  name: string;
  seats: number;
  /** Entitlement checkboxes as labelled, e.g. "Radiography – Desktop". */
  entitlements: string[];
}

/** remote-admin: an organisation's licences tab and the new-licence form. */
export class AdminLicencePage {
  constructor(readonly page: Page) {}

  /** Starts today for one year, so the licence grants its entitlements at once. */
  async create({ name, seats, entitlements }: NewLicence) {
    await this.page.getByRole('link', { name: 'New licence' }).click();
    const form = this.page.getByRole('form', { name: 'New licence' });
    await form.getByLabel('Licence name').fill(name);
    await form.getByLabel('Duration').selectOption({ label: '1 year' });
    await form.getByLabel('Start date').fill(ddMMyyyy(new Date()));
    await form.getByLabel('Number of seats').fill(String(seats));
    for (const entitlement of entitlements) await form.getByRole('checkbox', { name: entitlement, exact: true }).check();
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(this.page.getByText(`License ${name} added successfully`)).toBeVisible();
  }

  row(name: string) {
    return this.page.getByRole('table', { name: 'Licences' }).getByRole('row').filter({ hasText: name });
  }
}

function ddMMyyyy(date: Date) {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
}
