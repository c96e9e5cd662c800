import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** The bundled identity provider's dev outbox (no SMTP_URL): where invitation mails land. */
export const OUTBOX_JSON_URL = 'http://localhost:8180/dev/outbox.json';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: string;
}

/**
 * Waits for the invitation to this address and returns its set-password link. The API sends it
 * from its outbox worker after the bulk add commits, so it arrives a moment later.
 */
export async function invitationLink(request: APIRequestContext, email: string): Promise<string> {
  let mail: OutboxMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(OUTBOX_JSON_URL);
        if (!response.ok()) return undefined;
        const mails = (await response.json()) as OutboxMail[];
        mail = mails.find((m) => m.to.toLowerCase().includes(email.toLowerCase()));
        return mail?.subject;
      },
      { timeout: 30_000, message: `invitation mail to ${email}` },
    )
    .toBeTruthy();
  const link = /https?:\/\/\S*\/login-actions\/action-token\?\S+/.exec(mail!.text)?.[0];
  if (!link) throw new Error(`no set-password link in the mail to ${email}:\n${mail!.text}`);
  return link;
}

/** The identity provider's "Set your password" page behind the invitation link. */
export class SetPasswordPage {
  /** Chromium's own checks of password forms ("[DOM] Password forms should have …"). */
  readonly formIssues: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (message) => {
      const onThisPage = message.location().url.includes('/login-actions/');
      if (onThisPage && message.text().startsWith('[DOM]')) this.formIssues.push(message.text());
    });
  }

  async open(link: string) {
    await this.page.goto(link);
    await expect(this.page.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  }

  async setPassword(password: string) {
    await this.page.getByLabel('New password').fill(password);
    await this.page.getByLabel('Confirm password').fill(password);
    await this.page.getByRole('button', { name: 'Set password' }).click();
  }
}
