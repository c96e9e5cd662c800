import { File as NodeFile } from 'node:buffer';
import { act, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import {
  adminUser,
  ALL_ADMIN_PERMISSIONS,
  badRequest,
  invalidPage,
  licence,
  organisation,
  ORG_ADMIN_PERMISSIONS,
  paged,
  serveBulkAdd,
  serveInvitation,
  serveLookups,
  serveOrganisation,
  servePaged,
  serveRemoveLicense,
  serveUser,
} from '../../../testing/admin-api';

const server = setupTestServer();

const USERS = '/api/v1/organisation/1/user';
const USER = adminUser();
// Node's File: the upload's FormData is Node's (jest-fixed-jsdom), which refuses jsdom's File.
const csv = (text = 'firstName,lastName,email\nAna,Ash,ana@demo.test\n') =>
  new NodeFile([text], 'users.csv', { type: 'text/csv' }) as unknown as File;

beforeEach(() => {
  serveOrganisation(server, organisation());
});

describe('user list', () => {
  it('shows name, e-mail, translated role, licences and account, with an edit link', async () => {
    const { queries } = servePaged(server, USERS, () =>
      paged([USER, adminUser({ id: 'b3c1c1a2-0000-4000-8000-000000000002', fullName: 'Sam Admin', roleName: 'sys admin', licenseNames: [], accountStatus: 'invited' })]),
    );
    renderRemote({ server, path: '/admin/organisation/1/user', permissions: ALL_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Users' });
    const [, first, second] = await within(table).findAllByRole('row');
    expect(within(first as HTMLElement).getByRole('cell', { name: 'Radiography 2026' })).toBeInTheDocument();
    expect(within(first as HTMLElement).getByRole('link', { name: 'Edit Lena Learner' })).toHaveAttribute(
      'href',
      `/admin/organisation/1/user/${USER.id}`,
    );
    expect(within(second as HTMLElement).getByRole('cell', { name: 'System administrator' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('cell', { name: 'Invited' })).toBeInTheDocument();
    expect(queries[0]?.get('ordering')).toBe('lastName');
    expect(screen.getByRole('link', { name: 'Add users' })).toHaveAttribute('href', '/admin/organisation/1/user/new');
  });

  it('searches, sorts and goes back to page 1 on "Invalid page."', async () => {
    const { queries } = servePaged(server, USERS, (query) => (query.get('page') === '2' ? invalidPage() : paged([USER], 2)));
    const { user } = renderRemote({ server, path: '/admin/organisation/1/user', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'E-mail' }));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('email'));
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'lena');
    await waitFor(() => expect(queries.at(-1)?.get('filter')).toBe('lena'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.map((q) => q.get('page')).slice(-2)).toEqual(['2', '1']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('users from a learning platform without e-mail', () => {
  const NAMELESS = adminUser({
    id: 'b3c1c1a2-0000-4000-8000-000000000009',
    fullName: '',
    firstName: '',
    lastName: '',
    email: null,
    platformUser: { platform: 'moodle.school.test', id: 'a81f-22' },
    accountStatus: 'active',
  });
  afterEach(() => act(() => i18next.changeLanguage('en')));

  it('names a user without names as a learner from the platform with its id, in English and German', async () => {
    servePaged(server, USERS, () =>
      paged([NAMELESS, adminUser({ id: 'b3c1c1a2-0000-4000-8000-00000000000a', email: null, fullName: 'Ada King' })]),
    );
    const { unmount } = renderRemote({ server, path: '/admin/organisation/1/user', permissions: ALL_ADMIN_PERMISSIONS });
    const table = await screen.findByRole('table', { name: 'Users' });
    const [, nameless, named] = await within(table).findAllByRole('row');
    expect(within(nameless as HTMLElement).getByRole('cell', { name: 'Learner from moodle.school.test (a81f-22)' })).toBeInTheDocument();
    expect(within(nameless as HTMLElement).getByRole('cell', { name: 'No e-mail' })).toBeInTheDocument();
    expect(
      within(nameless as HTMLElement).getByRole('link', { name: 'Edit Learner from moodle.school.test (a81f-22)' }),
    ).toBeInTheDocument();
    expect(within(named as HTMLElement).getByRole('cell', { name: 'Ada King' })).toBeInTheDocument();
    unmount();

    await act(() => i18next.changeLanguage('de'));
    renderRemote({ server, path: '/admin/organisation/1/user', permissions: ALL_ADMIN_PERMISSIONS });
    expect(await screen.findByRole('cell', { name: 'Lernende Person von moodle.school.test (a81f-22)' })).toBeInTheDocument();
    expect(screen.getAllByRole('cell', { name: 'Keine E-Mail-Adresse' })).toHaveLength(2);
  });

  it('edits such a user without asking for an e-mail, and explains what adding one does', async () => {
    serveLookups(server);
    servePaged(server, `/api/v1/user/${NAMELESS.id}/license-block`, () => paged([]));
    const { sent } = serveUser(server, NAMELESS);
    const { user } = renderRemote({ server, path: `/admin/organisation/1/user/${NAMELESS.id}`, permissions: ALL_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('heading', { name: 'Learner from moodle.school.test (a81f-22)' })).toBeInTheDocument();
    const email = screen.getByLabelText(/^E-mail/);
    expect(email).toHaveValue('');
    expect(email).not.toBeRequired();
    expect(email).toHaveAccessibleDescription(/Adding one creates their sign-in account and sends them an invitation\./);
    await user.type(screen.getByLabelText(/^First name/), 'Ada');
    await user.type(screen.getByLabelText(/^Last name/), 'King');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('User details saved')).toBeInTheDocument();
    expect(sent).toEqual([{ firstName: 'Ada', lastName: 'King', email: '', userRole: NAMELESS.userRole }]);
  });
});

describe('bulk add', () => {
  const PATH = '/admin/organisation/1/user/new';

  it('asks for the licence among the organisation\'s own and needs a file, a licence and a role', async () => {
    const { queries } = serveLookups(server);
    const { sent } = serveBulkAdd(server, () => ({ count: 1, users: [] }));
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const licenceSelect = await screen.findByLabelText(/^Licence/);
    expect(within(licenceSelect).getByRole('option', { name: 'Radiography 2026 (3 of 10 seats available, expires 31/12/2026)' })).toBeInTheDocument();
    expect(queries.find((q) => q.get('field') === 'organisation_licenses')?.get('organisation')).toBe('1');

    await user.click(screen.getByRole('button', { name: 'Add users' }));
    expect(screen.getByLabelText(/^Users file/)).toHaveAccessibleDescription(expect.stringContaining('This field is required.'));
    expect(licenceSelect).toHaveAccessibleDescription('This field is required.');
    expect(screen.getByLabelText(/^Role/)).toHaveAccessibleDescription('This field is required.');
    expect(sent).toHaveLength(0);
  });

  it('gives the sys admin role only once confirmed; cancelling keeps the previous role', async () => {
    serveLookups(server);
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const role = await screen.findByLabelText(/^Role/);
    await user.selectOptions(role, 'Educator');
    await user.selectOptions(role, 'System administrator');
    const dialog = await screen.findByRole('dialog', { name: 'Give the system administrator role?' });
    expect(role).toHaveDisplayValue('Educator');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(role).toHaveDisplayValue('Educator');

    await user.selectOptions(role, 'System administrator');
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, give this role' }));
    expect(role).toHaveDisplayValue('System administrator');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('knows the sys admin role by its code, whatever its name', async () => {
    serveLookups(server, {
      roles: [
        { id: 1, name: 'learner', code: 'learner', description: null },
        { id: 4, name: 'Platform owner', code: 'sys_admin', description: null },
        { id: 9, name: 'sys admin', code: 'auditor', description: null },
      ],
    });
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const role = await screen.findByLabelText(/^Role/);
    await user.selectOptions(role, 'System administrator');
    expect(role).toHaveDisplayValue('System administrator');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.selectOptions(role, 'Platform owner');
    expect(await screen.findByRole('dialog', { name: 'Give the system administrator role?' })).toBeInTheDocument();
  });

  it('lists every refused row of the file under the form and keeps the page', async () => {
    serveLookups(server);
    const { sent } = serveBulkAdd(server, () => ({
      rows: [
        { row: 3, field: 'email', message: 'Enter a valid email address.' },
        { row: 2, field: 'license', message: 'Not enough seats on this licence: 1 available.' },
      ],
      file: ['The file has 2 rows with errors; no user was added.'],
    }));
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await user.upload(await screen.findByLabelText(/^Users file/), csv());
    expect(await screen.findByText('Uploaded')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/^Licence/), '7');
    await user.selectOptions(screen.getByLabelText(/^Role/), 'Learner');
    await user.click(screen.getByRole('button', { name: 'Add users' }));

    const list = await screen.findByRole('alert', { name: /2 problems in the file/ });
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Row 2, licence: Not enough seats on this licence: 1 available.',
      'Row 3, e-mail: Enter a valid email address.',
    ]);
    // The API puts its summary on the file (api/src/services/user/bulk-add-users.ts): shown under it and in the banner.
    expect(screen.getByLabelText(/^Users file/)).toHaveAccessibleDescription(
      expect.stringContaining('The file has 2 rows with errors; no user was added.'),
    );
    expect(sent).toEqual([{ file: '9f1c0e1e-2b7a-4d55-a1a0-6d2b5c4e0f01', license: 7, role: 1 }]);
  });

  it("shows the server's refusal of the role under the role", async () => {
    serveLookups(server);
    serveBulkAdd(server, () => ({ role: ['Only global administrators may grant or remove the sys admin role.'] }));
    const { user } = renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS });

    await user.upload(await screen.findByLabelText(/^Users file/), csv());
    await screen.findByText('Uploaded');
    await user.selectOptions(screen.getByLabelText(/^Licence/), '7');
    await user.selectOptions(screen.getByLabelText(/^Role/), 'System administrator');
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, give this role' }));
    await user.click(screen.getByRole('button', { name: 'Add users' }));

    await waitFor(() =>
      expect(screen.getByLabelText(/^Role/)).toHaveAccessibleDescription('Only global administrators may grant or remove the sys admin role.'),
    );
  });

  it('adds the users and returns to the list with how many were added', async () => {
    serveLookups(server);
    servePaged(server, USERS, () => paged([USER]));
    serveBulkAdd(server, () => ({ count: 2, users: [] }));
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await user.upload(await screen.findByLabelText(/^Users file/), csv());
    await screen.findByText('Uploaded');
    await user.selectOptions(screen.getByLabelText(/^Licence/), '7');
    await user.selectOptions(screen.getByLabelText(/^Role/), 'Learner');
    await user.click(screen.getByRole('button', { name: 'Add users' }));

    expect(await screen.findByText('2 users added successfully')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Users' })).toBeInTheDocument();
  });
});

describe('edit user', () => {
  const PATH = `/admin/organisation/1/user/${USER.id}`;
  beforeEach(() => {
    serveLookups(server);
    servePaged(server, `/api/v1/user/${USER.id}/license-block`, () => paged([licence()]));
  });

  it('checks names and e-mail, then saves with "User details saved"', async () => {
    const { sent } = serveUser(server, USER);
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const first = await screen.findByLabelText(/^First name/);
    await waitFor(() => expect(first).toHaveValue('Lena'));
    await user.clear(first);
    const email = screen.getByLabelText(/^E-mail/);
    await user.clear(email);
    await user.type(email, 'lena@demo');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(first).toHaveAccessibleDescription('This field is required.');
    expect(email).toHaveAccessibleDescription(/Enter a valid email address\./);
    expect(sent).toHaveLength(0);

    await user.type(first, 'Lea');
    await user.type(email, '.test');
    await user.selectOptions(screen.getByLabelText(/^Role/), 'Educator');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('User details saved')).toBeInTheDocument();
    expect(sent).toEqual([{ firstName: 'Lea', lastName: 'Learner', email: 'lena@demo.test', userRole: 2 }]);
  });

  it("shows the server's field errors under the fields", async () => {
    serveUser(server, USER, { errors: { email: ['A user with this e-mail address already exists.'] } });
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await waitFor(() => expect(screen.getByLabelText(/^E-mail/)).toHaveValue('lena@demo.test'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^E-mail/)).toHaveAccessibleDescription(/A user with this e-mail address already exists\./),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('E-mail: A user with this e-mail address already exists.');
  });

  it("lists the user's licences and removes one after the confirmation", async () => {
    serveUser(server, USER);
    const { removed } = serveRemoveLicense(server);
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Licences' });
    expect(await within(table).findByRole('cell', { name: 'Radiography 2026' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: '31/12/2026' })).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Remove Radiography 2026' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove licence' })).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Licence removed from Lena Learner.')).toBeInTheDocument();
    expect(removed).toEqual([`${USER.id}/7`]);
  });

  it("deletes after the confirm dialog and shows the server's reasons when refused", async () => {
    const { deleted } = serveUser(server, USER, { deleteErrors: { non_field_errors: ['You cannot delete your own account.'] } });
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Delete user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Delete Lena Learner (lena@demo.test)?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot delete your own account.');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleted).toEqual([USER.id]);
  });

  it('returns to the list after a delete', async () => {
    serveUser(server, USER);
    servePaged(server, USERS, () => paged([]));
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Delete user' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete user' }));

    expect(await screen.findByText('User Lena Learner deleted.')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Users' })).toBeInTheDocument();
  });
});

describe('e-mail change pending', () => {
  const PATH = `/admin/organisation/1/user/${USER.id}`;
  beforeEach(() => {
    serveLookups(server);
    servePaged(server, `/api/v1/user/${USER.id}/license-block`, () => paged([]));
  });

  it('a new e-mail is saved as pending: the link went to it, the user keeps the old one, and it can be cancelled', async () => {
    const { sent, cancelled } = serveUser(server, USER);
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const email = await screen.findByLabelText(/^E-mail/);
    await waitFor(() => expect(email).toHaveValue('lena@demo.test'));
    expect(email).toHaveAccessibleDescription(/takes effect only after its owner confirms it/);
    expect(screen.queryByRole('region', { name: 'E-mail change pending' })).not.toBeInTheDocument();
    await user.clear(email);
    await user.type(email, 'Lena.New@Demo.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(
      await screen.findByText('User details saved. A confirmation link was sent to lena.new@demo.test; the e-mail address changes once it is confirmed.'),
    ).toBeInTheDocument();
    expect(sent.map((s) => s.email)).toEqual(['Lena.New@Demo.test']);
    const pending = await screen.findByRole('region', { name: 'E-mail change pending' });
    expect(pending).toHaveTextContent('Change pending: lena.new@demo.test becomes');
    expect(pending).toHaveTextContent('Until then the user keeps lena@demo.test.');

    await user.click(within(pending).getByRole('button', { name: 'Cancel e-mail change' }));
    expect(await screen.findByText('The e-mail change to lena.new@demo.test was cancelled; its link no longer works.')).toBeInTheDocument();
    expect(cancelled).toEqual(['lena.new@demo.test']);
    expect(screen.queryByRole('region', { name: 'E-mail change pending' })).not.toBeInTheDocument();
  });

  it('shows a pending change without a cancel button to those who may not edit', async () => {
    serveUser(server, adminUser({ pendingEmail: 'lena.next@demo.test' }));
    renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS.filter((p) => p !== 'global.update_user') });
    const pending = await screen.findByRole('region', { name: 'E-mail change pending' });
    expect(pending).toHaveTextContent('Change pending: lena.next@demo.test');
    expect(within(pending).queryByRole('button')).not.toBeInTheDocument();
  });

  it('marks the change in the users list', async () => {
    servePaged(server, USERS, () => paged([adminUser({ pendingEmail: 'lena.next@demo.test' })]));
    renderRemote({ server, path: '/admin/organisation/1/user', permissions: ALL_ADMIN_PERMISSIONS });
    const table = await screen.findByRole('table', { name: 'Users' });
    const [, row] = await within(table).findAllByRole('row');
    expect(within(row as HTMLElement).getByRole('cell', { name: 'lena@demo.test change pending: lena.next@demo.test' })).toBeInTheDocument();
  });
});

describe('account and invitation', () => {
  const INVITED = adminUser({ accountStatus: 'invited' });
  const PATH = `/admin/organisation/1/user/${INVITED.id}`;
  beforeEach(() => {
    serveLookups(server);
    servePaged(server, `/api/v1/user/${INVITED.id}/license-block`, () => paged([]));
  });

  it('shows an invited account and sends the invitation again with a success message', async () => {
    serveUser(server, INVITED);
    const { calls } = serveInvitation(server, INVITED.id, { queued: true, queuedAt: '2026-11-23T10:15:00Z' });
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    const account = await screen.findByRole('region', { name: 'Account' });
    expect(account).toHaveTextContent('Account: Invited – the user has not signed in yet.');
    await user.click(within(account).getByRole('button', { name: 'Resend invitation' }));

    expect(await within(account).findByText('A new invitation is on its way to lena@demo.test.')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('says when an invitation was already on its way and none was sent again', async () => {
    serveUser(server, INVITED);
    const queuedAt = '2026-11-23T10:15:00Z';
    serveInvitation(server, INVITED.id, { queued: false, queuedAt });
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Resend invitation' }));
    // Shown in the browser's time zone, as dd/MM/yyyy HH:mm.
    const local = new Date(queuedAt);
    const pad = (n: number) => String(n).padStart(2, '0');
    const shown = `${pad(local.getDate())}/${pad(local.getMonth() + 1)}/${local.getFullYear()} ${pad(local.getHours())}:${pad(local.getMinutes())}`;
    expect(
      await screen.findByText(`An invitation to lena@demo.test was already sent at ${shown}; another one can be sent 10 minutes after it.`),
    ).toBeInTheDocument();
  });

  it("shows the server's reason when the invitation is refused, and the failure when it cannot be sent", async () => {
    serveUser(server, INVITED);
    serveInvitation(server, INVITED.id, badRequest({ non_field_errors: ['This user has already signed in, so there is no invitation to send again.'] }));
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Resend invitation' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The invitation could not be sent:');
    expect(alert).toHaveTextContent('This user has already signed in, so there is no invitation to send again.');

    serveInvitation(server, INVITED.id, new Response(null, { status: 500 }));
    await user.click(screen.getByRole('button', { name: 'Resend invitation' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The invitation could not be sent. Please try again later.'));
  });

  it('offers no resend for an active account', async () => {
    serveUser(server, USER);
    renderRemote({ server, path: `/admin/organisation/1/user/${USER.id}`, permissions: ALL_ADMIN_PERMISSIONS });
    expect(await screen.findByRole('region', { name: 'Account' })).toHaveTextContent('Account: Active');
    expect(screen.queryByRole('button', { name: 'Resend invitation' })).not.toBeInTheDocument();
  });
});
