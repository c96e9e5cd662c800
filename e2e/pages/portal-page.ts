import { expect, type Page } from '@playwright/test';
import { SignInPage, demoAccount, type DemoEmail } from './sign-in-page';

/** The portal shell: sidebar, cookie modal, logout. */
export class PortalPage {
  readonly signInPage: SignInPage;
  constructor(readonly page: Page) {
    this.signInPage = new SignInPage(page);
  }

  /** Opens a portal path as a signed-out visitor and signs in on the identity provider's page. */
  async signInAt(path: string, email: DemoEmail) {
    await this.page.goto(path);
    await this.signInPage.signIn(email);
    const { firstName, lastName } = demoAccount(email);
    await expect(this.welcome(firstName, lastName)).toBeVisible();
  }

  welcome(firstName: string, lastName: string) {
    return this.page.getByText(new RegExp(`${firstName} ${lastName}`));
  }

  cookieDialog() {
    return this.page.getByRole('dialog');
  }

  async acceptCookiesIfAsked() {
    const allow = this.page.getByRole('button', { name: 'Allow all' });
    if (await allow.isVisible().catch(() => false)) await allow.click();
    await expect(allow).toBeHidden();
  }

  sidebar() {
    return this.page.getByRole('navigation').first();
  }

  /** The sidebar's notifications button; its name carries the unread count ("Notifications, 2 unread"). */
  notificationsButton() {
    return this.page.getByRole('button', { name: /^Notifications(, \d+ unread)?$/ });
  }

  /** The open notifications list. */
  notificationsList() {
    return this.page.getByRole('region', { name: 'Notifications' });
  }

  /** Opens the notifications and follows the one named `name` (e.g. /New feedback on your Knee report/). */
  async openNotification(name: string | RegExp) {
    await this.notificationsButton().click();
    await this.notificationsList().getByRole('link', { name }).first().click();
  }
}
