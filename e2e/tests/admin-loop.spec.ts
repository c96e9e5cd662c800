import type { APIRequestContext } from '@playwright/test';
import { test, expect } from '../fixtures';
import { invitationLink, OUTBOX_JSON_URL, SetPasswordPage } from '../pages/admin-invitation';
import { AdminOrganisationPage } from '../pages/admin-organisation-page';
import { freshBrowser } from '../pages/fresh-browser';
import { SimulationPage } from '../pages/simulation-page';
import type { CsvUser } from '../pages/admin-users-page';

// The administration loop with every real part: remote-admin in the host, the admin API on its
// database, the identity provider's admin API, its outbox and set-password page. Names and
// e-mails are unique per run, so a reused stack (local runs) never collides with an earlier one.
test.use({ storageState: '.auth/sysadmin.json' });

/** How many mails the identity provider's dev outbox holds for this address. */
async function invitationsTo(request: APIRequestContext, email: string): Promise<number> {
  const response = await request.get(OUTBOX_JSON_URL);
  if (!response.ok()) return 0;
  const mails = (await response.json()) as Array<{ to: string }>;
  return mails.filter((m) => m.to.toLowerCase().includes(email.toLowerCase())).length;
}

test('a system administrator sets up an organisation, its licence and users; an invited user signs in with only what the licence grants; another organisation administrator sees none of it', async ({
  browser,
  page,
  request,
  organisations,
  licences,
  users,
}) => {
  test.setTimeout(180_000);
  const stamp = `${Date.now()}`;
  const organisationName = `E2E Clinic ${stamp}`;
  const licenceName = `Radiography desktop ${stamp}`;
  const person = (firstName: string, lastName: string): CsvUser => ({
    firstName,
    lastName,
    email: `${firstName}.${lastName}.${stamp}@e2e.test`.toLowerCase(),
  });
  const [ada, grace, alan] = [person('Ada', 'Lovelace'), person('Grace', 'Hopper'), person('Alan', 'Turing')];

  await organisations.create(organisationName);
  const organisationId = await organisations.open(organisationName);

  await organisations.openTab('Licences');
  await licences.create({ name: licenceName, seats: 2, entitlements: ['Radiography – Desktop'] });
  await expect(licences.row(licenceName)).toContainText('0 of 2 seats used');

  // Three people for two seats: the whole file is refused, and nobody is created.
  await organisations.openTab('Users');
  await users.openBulkAdd();
  await users.uploadCsv([ada, grace, alan]);
  await users.chooseLicence(licenceName);
  await users.chooseRole('Learner');
  await users.submit();
  await expect(users.form().getByText('Not enough seats on this licence: 2 available.').first()).toBeVisible();
  await expect(users.form().getByRole('heading', { name: /no user was added/ })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/organisation/${organisationId}/user/new$`));
  await organisations.openTab('Users');
  await expect(users.table().getByText('No records found')).toBeVisible();
  await expect(users.table().getByRole('row').filter({ hasText: stamp })).toHaveCount(0);

  await users.openBulkAdd();
  await users.uploadCsv([ada, grace]);
  await users.chooseLicence(licenceName);
  await users.chooseRole('Learner');
  await users.submit();
  await expect(page.getByText('2 users added successfully')).toBeVisible();
  for (const u of [ada, grace]) await expect(users.table().getByRole('row').filter({ hasText: u.email })).toBeVisible();
  await organisations.openTab('Licences');
  await expect(licences.row(licenceName)).toContainText('2 of 2 seats used');

  // Ada follows her invitation in a browser of her own.
  const link = await invitationLink(request, ada.email);
  const newUser = await freshBrowser(browser);
  const setPassword = new SetPasswordPage(newUser.page);
  await setPassword.open(link);
  await setPassword.setPassword(`Seats-${stamp}`);
  await expect(newUser.page).toHaveURL(/^http:\/\/localhost:8080\//);
  await expect(newUser.portal.welcome(ada.firstName, ada.lastName)).toBeVisible();
  // Chromium reports a password form it cannot tie to an account (its manager would save the
  // new password without the e-mail address); by now the set-password page has been parsed.
  expect(setPassword.formIssues).toEqual([]);
  await newUser.portal.acceptCookiesIfAsked();

  // Her licence grants Radiography on the desktop, nothing else.
  const simulations = new SimulationPage(newUser.page);
  await simulations.open();
  await expect(newUser.page.getByRole('link', { name: 'Radiography', exact: true })).toBeVisible();
  await expect(newUser.page.getByRole('link', { name: 'Radiation safety', exact: true })).toHaveCount(0);
  await expect(newUser.page.getByRole('link', { name: 'Birthing', exact: true })).toHaveCount(0);
  await simulations.drillDown('Radiography', 'Lower limb', 'Knee');
  await expect(simulations.launchButton('Desktop')).toBeVisible();
  await expect(simulations.launchButton('VR')).toHaveCount(0);
  await newUser.context.close();

  // Back with the administrator: Ada's first sign-in made her account active; Grace is invited.
  await organisations.openTab('Users');
  await page.reload();
  await expect(users.table().getByRole('row').filter({ hasText: ada.email })).toContainText('Active');
  await expect(users.table().getByRole('row').filter({ hasText: grace.email })).toContainText('Invited');
  // Grace's mail got lost: the administrator sends it again, and a second one arrives.
  await users.table().getByRole('link', { name: `Edit ${grace.firstName} ${grace.lastName}` }).click();
  const account = page.getByRole('region', { name: 'Account' });
  await expect(account).toContainText('Invited');
  await account.getByRole('button', { name: 'Resend invitation' }).click();
  await expect(account.getByText(`A new invitation is on its way to ${grace.email}.`)).toBeVisible();
  await expect.poll(() => invitationsTo(request, grace.email), { timeout: 30_000 }).toBe(2);
  // The organisation's activity says who did what, newest first.
  await organisations.openTab('Activity');
  const activity = page.getByRole('table', { name: 'Activity' });
  await expect(activity.getByRole('row').nth(1)).toContainText('Invitation sent again');
  await expect(activity.getByRole('row').nth(1)).toContainText(`User: ${grace.email}`);
  await expect(activity.getByRole('row').filter({ hasText: 'First sign-in' })).toContainText(`${ada.firstName} ${ada.lastName}`);
  await expect(activity.getByRole('row').filter({ hasText: 'Seats assigned' })).toContainText(`Licence: ${licenceName}`);

  // Demo Hospital's organisation administrator: the new organisation is not theirs to see.
  const orgAdmin = await freshBrowser(browser);
  // The cookie modal is left unanswered: the answer is stored with the account, and the cookie
  // consent spec expects this demo account never to have given one.
  await orgAdmin.portal.signInAt('/admin/organisation', 'orgadmin@demo.test');
  const theirList = new AdminOrganisationPage(orgAdmin.page);
  await expect(theirList.table().getByRole('row').filter({ hasText: 'Demo Hospital' })).toBeVisible();
  await expect(theirList.table().getByRole('row').filter({ hasText: organisationName })).toHaveCount(0);
  await orgAdmin.page.goto(`/admin/organisation/${organisationId}`);
  await expect(orgAdmin.page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(orgAdmin.page.getByText(organisationName)).toHaveCount(0);
  await orgAdmin.context.close();
});
