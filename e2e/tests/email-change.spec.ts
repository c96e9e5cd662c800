import type { APIRequestContext } from '@playwright/test';
import { test, expect } from '../fixtures';
import { invitationLink, SetPasswordPage } from '../pages/admin-invitation';
import { expectNoAxeViolations } from '../pages/axe';
import { freshBrowser } from '../pages/fresh-browser';
import type { CsvUser } from '../pages/admin-users-page';

// Issue #20 point 3: an administrator's change of a user's e-mail needs the new address's
// consent. Every real part: remote-admin, the API and its development mail outbox, the host's
// confirmation page, the identity provider's account and sign-in.
test.use({ storageState: '.auth/sysadmin.json' });

/** The API's development outbox (MAIL_DEV_OUTBOX, no SMTP_URL), through the host's /api proxy. */
const API_OUTBOX_URL = 'http://localhost:8080/api/dev/outbox.json';

interface Mail {
  to: string;
  subject: string;
  text: string;
}

async function mailTo(request: APIRequestContext, email: string): Promise<Mail[]> {
  const response = await request.get(API_OUTBOX_URL);
  if (!response.ok()) return [];
  return ((await response.json()) as Mail[]).filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

test('an administrator changes a user’s e-mail: nothing changes until the new address confirms the link; then the user signs in with it', async ({
  browser,
  page,
  request,
  organisations,
  licences,
  users,
}) => {
  test.setTimeout(180_000);
  const stamp = `${Date.now()}`;
  const mara: CsvUser = { firstName: 'Mara', lastName: 'Change', email: `mara.${stamp}@e2e.test` };
  const newEmail = `mara.new.${stamp}@e2e.test`;
  const password = `Change-${stamp}`;

  // A user of an organisation of their own, who has set a password.
  await organisations.create(`E2E Mail ${stamp}`);
  await organisations.open(`E2E Mail ${stamp}`);
  await organisations.openTab('Licences');
  await licences.create({ name: `Mail licence ${stamp}`, seats: 1, entitlements: ['Radiography – Desktop'] });
  await organisations.openTab('Users');
  await users.openBulkAdd();
  await users.uploadCsv([mara]);
  await users.chooseLicence(`Mail licence ${stamp}`);
  await users.chooseRole('Learner');
  await users.submit();
  await expect(page.getByText('1 user added successfully')).toBeVisible();
  const invited = await freshBrowser(browser);
  const setPassword = new SetPasswordPage(invited.page);
  await setPassword.open(await invitationLink(request, mara.email));
  await setPassword.setPassword(password);
  await expect(invited.portal.welcome(mara.firstName, mara.lastName)).toBeVisible();
  await invited.context.close();

  // The administrator enters the new address: it is only pending.
  await users.table().getByRole('link', { name: `Edit ${mara.firstName} ${mara.lastName}` }).click();
  const emailField = page.getByLabel(/^E-mail/);
  await expect(emailField).toHaveValue(mara.email);
  await emailField.fill(newEmail);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText(`User details saved. A confirmation link was sent to ${newEmail}; the e-mail address changes once it is confirmed.`),
  ).toBeVisible();
  const pending = page.getByRole('region', { name: 'E-mail change pending' });
  await expect(pending).toContainText(`Change pending: ${newEmail}`);
  await expect(pending).toContainText(`Until then the user keeps ${mara.email}.`);
  await organisations.openTab('Users');
  await expect(users.table().getByRole('row').filter({ hasText: mara.email })).toContainText(`change pending: ${newEmail}`);

  // The old address is told; the new one gets the link.
  await expect.poll(async () => (await mailTo(request, mara.email)).length, { timeout: 15_000 }).toBe(1);
  expect((await mailTo(request, mara.email))[0]!.text).toContain(newEmail);
  const [confirmation] = await mailTo(request, newEmail);
  const link = /http:\/\/localhost:8080\/confirm-email#token=[A-Za-z0-9_-]+/.exec(confirmation?.text ?? '')?.[0];
  expect(link, confirmation?.text).toBeTruthy();

  // Until the link is used the new address cannot sign in, the old one still can.
  const before = await freshBrowser(browser);
  await before.page.goto('/support');
  await before.page.getByLabel('Email').fill(newEmail);
  await before.page.getByLabel('Password').fill(password);
  await before.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(before.page.getByText(/Invalid email or password/i)).toBeVisible();
  await before.context.close();

  // Mara opens the link (signed out): it shows the address and waits for her button.
  const owner = await freshBrowser(browser);
  await owner.page.goto(link!);
  await expect(owner.page.getByRole('heading', { level: 1, name: 'Confirm your new e-mail address' })).toBeVisible();
  await expect(owner.page.getByText(`make ${newEmail} the e-mail address of your account`)).toBeVisible();
  await expectNoAxeViolations(owner.page, 'the e-mail confirmation page');
  // Keyboard only.
  const confirm = owner.page.getByRole('button', { name: 'Confirm e-mail address' });
  await confirm.focus();
  await owner.page.keyboard.press('Enter');
  await expect(owner.page.getByRole('status')).toContainText(`Done: your e-mail address is now ${newEmail}.`);

  // A second use is refused.
  const again = await freshBrowser(browser);
  await again.page.goto(link!);
  await expect(again.page.getByRole('alert')).toContainText('This confirmation link has already been used.');
  await again.context.close();

  // She signs in with the new address and her password.
  await owner.page.getByRole('link', { name: 'Go to sign-in' }).click();
  await expect(owner.page.getByLabel('Email')).toBeVisible();
  await owner.page.getByLabel('Email').fill(newEmail);
  await owner.page.getByLabel('Password').fill(password);
  await owner.page.getByRole('button', { name: 'Sign in' }).click();
  await expect(owner.portal.welcome(mara.firstName, mara.lastName)).toBeVisible({ timeout: 30_000 });
  await owner.context.close();

  // The administrator's list shows the new address, with nothing pending.
  await page.reload();
  const row = users.table().getByRole('row').filter({ hasText: newEmail });
  await expect(row).toBeVisible();
  await expect(row).not.toContainText('change pending');
});
