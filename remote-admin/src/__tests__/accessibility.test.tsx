import { screen, waitFor, within } from '@testing-library/react';
import { axe } from 'jest-axe';
import { setupTestServer } from '../testing/msw-server';
import { renderRemote } from '../testing/render-remote';
import {
  adminUser,
  ALL_ADMIN_PERMISSIONS,
  licence,
  licensedUser,
  organisation,
  paged,
  serveLicence,
  serveLookups,
  serveInvitation,
  serveOrganisation,
  servePaged,
  serveUser,
} from '../testing/admin-api';

const server = setupTestServer();
// axe walks the whole page once per screen: seconds each on a busy machine.
jest.setTimeout(30_000);

const USER = adminUser();

beforeEach(() => {
  serveLookups(server);
  serveOrganisation(server, organisation());
  servePaged(server, '/api/v1/organisation', () => paged([organisation(), organisation({ id: 2, name: 'Other College', isActive: false })], 2));
  serveLicence(server, licence());
  servePaged(server, '/api/v1/organisation/1/license-block', () => paged([licence()]));
  servePaged(server, '/api/v1/organisation/1/license-block/7/user', () => paged([licensedUser()]));
  servePaged(server, '/api/v1/organisation/1/user', () => paged([USER]));
  serveUser(server, USER);
  servePaged(server, `/api/v1/user/${USER.id}/license-block`, () => paged([licence()]));
});

async function expectNoViolations(container: HTMLElement) {
  // "region" (all content inside landmarks) is the host's to satisfy: it mounts the remote inside
  // its <main>, which this harness does not render.
  const results = await axe(container, { rules: { region: { enabled: false } } });
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

describe('accessibility (axe) of the administration screens', () => {
  it.each([
    ['organisation list', '/admin/organisation', 'Other College'],
    ['new organisation form', '/admin/organisation/new', 'Measurement standard'],
    ['organisation details', '/admin/organisation/1', 'Measurement standard'],
    ['licence list', '/admin/organisation/1/license', '7 of 10 seats used'],
    ['new licence form', '/admin/organisation/1/license/new', 'Radiography – Desktop'],
    ['licence edit with its users', '/admin/organisation/1/license/7', 'lena@demo.test'],
    ['user list', '/admin/organisation/1/user', 'lena@demo.test'],
    ['bulk add', '/admin/organisation/1/user/new', 'Users file (CSV)'],
    ['user edit with licences', `/admin/organisation/1/user/${USER.id}`, '31/12/2026'],
  ])('%s has no violations', async (_name, path, ready) => {
    const { container } = renderRemote({ server, path, permissions: ALL_ADMIN_PERMISSIONS });
    await waitFor(() => expect(screen.getAllByText((_, node) => node?.textContent === ready || (node?.childNodes.length === 1 && (node.textContent ?? '').includes(ready))).length).toBeGreaterThan(0), { timeout: 5000 });
    await expectNoViolations(container);
  });

  it('the delete confirmation dialog has no violations', async () => {
    const { user } = renderRemote({ server, path: `/admin/organisation/1/user/${USER.id}`, permissions: ALL_ADMIN_PERMISSIONS });
    await user.click(await screen.findByRole('button', { name: 'Delete user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await expectNoViolations(document.body);
  });

  it('an invited user with the resend answered has no violations, and Enter on the button sends it', async () => {
    const invited = adminUser({ id: 'b3c1c1a2-0000-4000-8000-000000000009', accountStatus: 'invited' });
    serveUser(server, invited);
    servePaged(server, `/api/v1/user/${invited.id}/license-block`, () => paged([]));
    serveInvitation(server, invited.id, { queued: true, queuedAt: '2026-11-23T10:15:00Z' });
    const { user, container } = renderRemote({ server, path: `/admin/organisation/1/user/${invited.id}`, permissions: ALL_ADMIN_PERMISSIONS });
    (await screen.findByRole('button', { name: 'Resend invitation' })).focus();
    await user.keyboard('{Enter}');
    await screen.findByText('A new invitation is on its way to lena@demo.test.');
    await expectNoViolations(container);
  });
});
