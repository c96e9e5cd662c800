import { expect, type Page } from '@playwright/test';
import demo from '../../contract/src/demo-accounts.json' with { type: 'json' };

/** The five main demo accounts and Demo Brightspace College's learner and educator. */
export type DemoEmail =
  | (typeof demo.accounts)[number]['email']
  | (typeof demo.brightspaceAccounts)[number]['email'];

export function demoAccount(email: DemoEmail) {
  const account = [...demo.accounts, ...demo.brightspaceAccounts].find((a) => a.email === email);
  if (!account) throw new Error(`no demo account ${email}`);
  return account;
}

/** The identity provider's sign-in page (identity/ locally, Keycloak in production). */
export class SignInPage {
  constructor(private readonly page: Page) {}

  async signIn(email: DemoEmail, password = demo.password) {
    await expect(this.page.getByLabel('Email')).toBeVisible();
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  async expectVisible() {
    await expect(this.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  }
}

/**
 * Records every page the identity provider renders in this tab from now on (a sign-in form would be
 * one): a launch that signs in by itself passes through none.
 */
export function recordIdentityPages(page: Page): string[] {
  const shown: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.includes('/interaction/') && response.status() === 200 && response.request().resourceType() === 'document') {
      shown.push(url.pathname);
    }
  });
  return shown;
}
