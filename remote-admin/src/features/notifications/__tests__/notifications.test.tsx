import { screen, waitFor, within } from '@testing-library/react';
import { axe } from 'jest-axe';
import { HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { ORG_ADMIN_PERMISSIONS, organisation, serveLookups, serveOrganisation } from '../../../testing/admin-api';
import { notification, serveNotifications, SYS_ADMIN_PERMISSIONS } from '../../../testing/product-admin-api';

const server = setupTestServer();
// axe walks the whole page: seconds on a busy machine, not a hang.
jest.setTimeout(30_000);

async function expectNoViolations(container: HTMLElement) {
  // "region" is the host's to satisfy: it mounts the remote inside its <main>.
  const results = await axe(container, { rules: { region: { enabled: false } } });
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const ALL = [
  notification(),
  notification({ kind: 'license_seats_nearly_full', license: 8, licenseName: 'Birthing', expiryDate: null, seatsUsed: 9, numberOfSeats: 10 }),
  notification({ kind: 'license_ended', organisation: 2, organisationName: 'Other College', license: 9, licenseName: 'Old block', expiryDate: '2026-10-31' }),
];

beforeEach(() => {
  serveLookups(server);
  serveOrganisation(server, organisation());
});

describe('notifications section', () => {
  it('lists every notification with its organisation and a link to the licence', async () => {
    const { organisations } = serveNotifications(server, () => ALL);
    const { container } = renderRemote({ server, path: '/admin/notification', permissions: SYS_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Notifications' });
    const [header, expiring, seats, ended] = await within(table).findAllByRole('row');
    expect(within(header as HTMLElement).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Licence', 'Notification']);
    expect(expiring).toHaveTextContent('Radiography 2026Demo Hospital');
    expect(expiring).toHaveTextContent('Licence expiring soonExpires on 10/12/2026');
    expect(within(expiring as HTMLElement).getByRole('link', { name: 'Radiography 2026' })).toHaveAttribute('href', '/admin/organisation/1/license/7');
    expect(seats).toHaveTextContent('Seats nearly used up9 of 10 seats used');
    expect(ended).toHaveTextContent('Old blockOther College');
    expect(ended).toHaveTextContent('Licence endedEnded on 31/10/2026');
    expect(within(ended as HTMLElement).getByRole('link', { name: 'Old block' })).toHaveAttribute('href', '/admin/organisation/2/license/9');
    expect(organisations).toEqual([null]);
    const tabs = screen.getByRole('navigation', { name: 'Administration sections' });
    expect(within(tabs).getByRole('link', { name: 'Notifications' })).toHaveAttribute('aria-current', 'page');
    await expectNoViolations(container);
  });

  it('says "No records found" when nothing needs attention, and shows the load failure', async () => {
    serveNotifications(server, () => []);
    const { unmount } = renderRemote({ server, path: '/admin/notification', permissions: ORG_ADMIN_PERMISSIONS });
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    unmount();

    serveNotifications(server, () => HttpResponse.json({ detail: 'Internal server error.' }, { status: 500 }));
    renderRemote({ server, path: '/admin/notification', permissions: ORG_ADMIN_PERMISSIONS });
    expect(await screen.findByText('The data could not be loaded. Please try again later.', {}, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('is page not found for an administrator who may not see licences', async () => {
    renderRemote({ server, path: '/admin/notification', permissions: ['global.client_access_admin_section', 'global.view_org'] });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe("an organisation's Notifications tab", () => {
  it("asks for the organisation's notifications and shows them without repeating the organisation", async () => {
    const { organisations } = serveNotifications(server, () => ALL.slice(0, 2));
    const { container, user } = renderRemote({ server, path: '/admin/organisation/1', permissions: ORG_ADMIN_PERMISSIONS });

    const tabs = await screen.findByRole('navigation', { name: 'Organisation sections' });
    const tab = within(tabs).getByRole('link', { name: 'Notifications' });
    expect(tab).toHaveAttribute('href', '/admin/organisation/1/notification');
    tab.focus();
    await user.keyboard('{Enter}');

    const table = await screen.findByRole('table', { name: 'Notifications' });
    expect(await within(table).findByRole('link', { name: 'Birthing' })).toHaveAttribute('href', '/admin/organisation/1/license/8');
    // Its own organisation's page: the organisation is not repeated on every row.
    expect(within(table).queryByText('Demo Hospital')).not.toBeInTheDocument();
    await waitFor(() => expect(organisations).toEqual(['1']));
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Notifications')).toHaveAttribute('aria-current', 'page');
    await expectNoViolations(container);
  });
});
