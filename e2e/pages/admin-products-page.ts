import { expect, type Page } from '@playwright/test';

export interface NewConfiguration {
  name: string;
  /** The configuration file's name and content (JSON matching the product's schema). */
  configFile: { name: string; json: unknown };
  /** As the practice view category select labels it, e.g. "Lower limb". */
  practiceViewCategory: string;
}

export interface NewDownload {
  version: string;
  /** As the operating system select labels it: "Windows" or "macOS". */
  operatingSystem: string;
  fileUrl: string;
  installer: { name: string; bytes: Buffer };
}

/** remote-admin: /admin/product, a product's configurations and downloads, and their forms. */
export class AdminProductsPage {
  constructor(readonly page: Page) {}

  async open(productName: string) {
    await this.page.goto('/admin/product');
    await this.page.getByRole('table', { name: 'Products' }).getByRole('link', { name: productName, exact: true }).click();
    await expect(this.page.getByRole('heading', { name: productName, level: 1 })).toBeVisible();
  }

  async openTab(name: 'Product configurations' | 'Downloads') {
    await this.page.getByRole('navigation', { name: 'Product sections' }).getByRole('link', { name }).click();
    await expect(this.page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }

  async createConfiguration({ name, configFile, practiceViewCategory }: NewConfiguration) {
    await this.page.getByRole('link', { name: 'New configuration' }).click();
    const form = this.page.getByRole('form', { name: 'New configuration' });
    await form.getByLabel('Configuration name').fill(name);
    await form.getByLabel('Configuration file (JSON)').setInputFiles({
      name: configFile.name,
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(configFile.json)),
    });
    await expect(form.getByText(configFile.name)).toBeVisible();
    await expect(form.getByText('Uploaded')).toBeVisible();
    await form.getByLabel('Practice view category').selectOption({ label: practiceViewCategory });
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(this.page.getByText(`Product configuration ${name} added successfully`)).toBeVisible();
  }

  async createDownload({ version, operatingSystem, fileUrl, installer }: NewDownload) {
    await this.page.getByRole('link', { name: 'Add download' }).click();
    const form = this.page.getByRole('form', { name: 'Download details' });
    await form.getByLabel(/^Version/).fill(version);
    await form.getByLabel('Operating system').selectOption({ label: operatingSystem });
    await form.getByLabel('File URL').fill(fileUrl);
    await form.getByLabel('Installer file').setInputFiles({ name: installer.name, mimeType: 'application/zip', buffer: installer.bytes });
    await expect(form.getByText(installer.name)).toBeVisible();
    await expect(form.getByText('Uploaded')).toBeVisible();
    await expect(form.getByRole('checkbox', { name: 'Activate version' })).toBeChecked();
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(this.page.getByText(`Version ${version} for ${operatingSystem} added successfully`)).toBeVisible();
  }

  downloadRow(version: string, operatingSystem: string) {
    return this.page
      .getByRole('table', { name: 'Downloads' })
      .getByRole('row')
      .filter({ has: this.page.getByRole('cell', { name: version, exact: true }) })
      .filter({ hasText: operatingSystem });
  }

  async deactivateDownload(version: string, operatingSystem: string) {
    await this.downloadRow(version, operatingSystem).getByRole('link', { name: `Edit ${version} for ${operatingSystem}` }).click();
    const form = this.page.getByRole('form', { name: 'Download details' });
    await expect(form.getByLabel(/^Version/)).toHaveValue(version);
    await form.getByRole('checkbox', { name: 'Activate version' }).uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(this.page.getByText('Download details saved')).toBeVisible();
  }
}
