import { screen, waitFor, within } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import {
  ALL_ADMIN_PERMISSIONS,
  invalidPage,
  licence,
  licensedUser,
  organisation,
  ORG_ADMIN_PERMISSIONS,
  paged,
  serveLicence,
  serveLookups,
  serveOrganisation,
  servePaged,
  serveRemoveLicense,
} from '../../../testing/admin-api';

const server = setupTestServer();

const LIST = '/api/v1/organisation/1/license-block';

beforeEach(() => {
  serveLookups(server);
  serveOrganisation(server, organisation());
});

describe('licence list', () => {
  it('shows name, dd/MM/yyyy dates, status and seat usage in words', async () => {
    const { queries } = servePaged(server, LIST, () =>
      paged([licence(), licence({ id: 8, licenseName: 'Old', isActive: false, seatsUsed: 0, numberOfSeats: 0, startDate: '2024-03-05' })]),
    );
    renderRemote({ server, path: '/admin/organisation/1/license', permissions: ALL_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Licences' });
    const [, first, second] = await within(table).findAllByRole('row');
    expect(within(first as HTMLElement).getByRole('cell', { name: '01/01/2026' })).toBeInTheDocument();
    expect(within(first as HTMLElement).getByRole('cell', { name: '31/12/2026' })).toBeInTheDocument();
    expect(within(first as HTMLElement).getByText('7 of 10 seats used')).toBeInTheDocument();
    expect(within(first as HTMLElement).getByRole('link', { name: 'Edit Radiography 2026' })).toHaveAttribute(
      'href',
      '/admin/organisation/1/license/7',
    );
    expect(within(second as HTMLElement).getByText('Inactive')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('cell', { name: '05/03/2024' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('0 of 0 seats used')).toBeInTheDocument();
    expect(queries[0]?.get('ordering')).toBe('licenseName');
    expect(screen.getByRole('link', { name: 'New licence' })).toHaveAttribute('href', '/admin/organisation/1/license/new');
  });

  it('sorts, searches and falls back to page 1 on "Invalid page."', async () => {
    const { queries } = servePaged(server, LIST, (query) =>
      query.get('page') === '2' ? invalidPage() : paged([licence()], 2),
    );
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Expiry date' }));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('expiryDate'));
    await user.type(screen.getByRole('searchbox', { name: 'Search licences' }), 'radio');
    await waitFor(() => expect(queries.at(-1)?.get('filter')).toBe('radio'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.map((q) => q.get('page')).slice(-2)).toEqual(['2', '1']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers no "New licence" to an organisation administrator', async () => {
    servePaged(server, LIST, () => paged([licence()]));
    renderRemote({ server, path: '/admin/organisation/1/license', permissions: ORG_ADMIN_PERMISSIONS });
    expect(await screen.findByText('7 of 10 seats used')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New licence' })).not.toBeInTheDocument();
  });
});

describe('new licence', () => {
  beforeEach(() => servePaged(server, LIST, () => paged([licence({ id: 8, licenseName: 'Birthing' })])));

  it('needs a name, duration, start date, seats and at least one entitlement before it sends', async () => {
    const { sent } = serveLicence(server, licence());
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/new', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Create' }));

    for (const label of ['Licence name', 'Duration', 'Start date', 'Number of seats']) {
      expect(screen.getByLabelText(new RegExp(`^${label}`))).toHaveAccessibleDescription(expect.stringContaining('This field is required.'));
    }
    expect(screen.getByRole('group', { name: /Entitlements/ })).toHaveAccessibleDescription('Select at least one option.');
    expect(sent).toHaveLength(0);
  });

  it('refuses negative or fractional seats and a date that is not dd/MM/yyyy', async () => {
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/new', permissions: ALL_ADMIN_PERMISSIONS });

    const seats = await screen.findByLabelText(/^Number of seats/);
    await user.type(seats, '-1');
    await user.type(screen.getByLabelText(/^Start date/), '2026-01-01');
    await user.type(screen.getByLabelText(/^Expiry date/), '31/02/2026');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(seats).toHaveAccessibleDescription('Ensure this value is greater than or equal to 0.');
    expect(screen.getByLabelText(/^Start date/)).toHaveAccessibleDescription('Enter a valid date in the format dd/MM/yyyy.');
    expect(screen.getByLabelText(/^Expiry date/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter a valid date in the format dd/MM/yyyy.'),
    );
  });

  it('creates the licence with wire dates and entitlement ids, then lists it with "added successfully"', async () => {
    const { sent } = serveLicence(server, licence());
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/new', permissions: ALL_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Licence name/), 'Birthing');
    await user.selectOptions(screen.getByLabelText(/^Duration/), '1 year');
    await user.type(screen.getByLabelText(/^Start date/), '05/03/2026');
    await user.type(screen.getByLabelText(/^Number of seats/), '0');
    await user.click(screen.getByRole('checkbox', { name: 'Radiography – Desktop' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('License Birthing added successfully')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        licenseName: 'Birthing',
        salesReference: null,
        duration: 601,
        startDate: '2026-03-05',
        expiryDate: null,
        numberOfSeats: 0,
        isActive: true,
        entitlements: [702],
      },
    ]);
  });
});

describe('edit licence', () => {
  beforeEach(() => {
    servePaged(server, `${LIST}/7/user`, () => paged([licensedUser()]));
  });

  it('saves with "License details saved" and shows a server refusal under its field', async () => {
    const { sent } = serveLicence(server, licence(), {
      errors: { numberOfSeats: ['Ensure this value is greater than or equal to the seats in use (7).'] },
    });
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/7', permissions: ALL_ADMIN_PERMISSIONS });

    const seats = await screen.findByLabelText(/^Number of seats/);
    expect(seats).toHaveValue(10);
    expect(screen.getByLabelText(/^Start date/)).toHaveValue('01/01/2026');
    expect(screen.getByLabelText(/^Start date/)).not.toHaveAttribute('readonly');
    await user.clear(seats);
    await user.type(seats, '3');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Number of seats: Ensure this value is greater than or equal to the seats in use (7).',
    );
    expect(seats).toHaveAccessibleDescription(expect.stringContaining('Ensure this value is greater than or equal to the seats in use (7).'));
    expect(sent[0]).toMatchObject({ numberOfSeats: 3, startDate: '2026-01-01', expiryDate: '2026-12-31', entitlements: [701] });
  });

  it('says "License details saved" after a good save', async () => {
    serveLicence(server, licence());
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/7', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('checkbox', { name: 'Radiography – Desktop' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('License details saved')).toBeInTheDocument();
  });

  it('keeps the start date read-only while the stored duration is inactive', async () => {
    serveLicence(server, licence({ duration: 604 }));
    renderRemote({ server, path: '/admin/organisation/1/license/7', permissions: ALL_ADMIN_PERMISSIONS });

    const start = await screen.findByLabelText(/^Start date/);
    expect(start).toHaveAttribute('readonly');
    expect(start).toHaveAccessibleDescription('The start date cannot be changed while the licence duration is inactive.');
  });

  it("lists the licence's users and frees a seat only after the confirmation", async () => {
    serveLicence(server, licence());
    const { removed } = serveRemoveLicense(server);
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/7', permissions: ALL_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Licensed users' });
    expect(await within(table).findByRole('cell', { name: 'lena@demo.test' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Learner' })).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Remove Lena Learner' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove licence' });
    expect(dialog).toHaveTextContent('Free the seat of Lena Learner on the licence Radiography 2026?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(removed).toEqual([]);

    await user.click(within(table).getByRole('button', { name: 'Remove Lena Learner' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove licence' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Licence removed from Lena Learner.')).toBeInTheDocument();
    expect(removed).toEqual(['5b0e6a57-8d1c-4c9f-9b53-1e0c7a0a0001/7']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says so when a seat cannot be freed', async () => {
    serveLicence(server, licence());
    serveRemoveLicense(server, { fail: true });
    const { user } = renderRemote({ server, path: '/admin/organisation/1/license/7', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Remove Lena Learner' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The licence could not be removed.');
  });
});
