import { screen, waitFor, within } from '@testing-library/react';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import {
  ALL_ADMIN_PERMISSIONS,
  organisation,
  ORG_ADMIN_PERMISSIONS,
  paged,
  serveLookups,
  serveOrganisation,
  servePaged,
} from '../../../testing/admin-api';

const server = setupTestServer();

beforeEach(() => {
  serveLookups(server);
  servePaged(server, '/api/v1/organisation', () => paged([organisation({ id: 99, name: 'New Clinic' })]));
});

describe('new organisation', () => {
  it('refuses to send without the required fields and says so under each', async () => {
    const { sent } = serveOrganisation(server, organisation());
    const { user } = renderRemote({ server, path: '/admin/organisation/new', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Create' }));

    for (const label of [
      'Organisation name',
      'Country',
      'Main contact',
      'Learning management system',
      'Default language',
      'Radiation unit system',
      'Measurement standard',
    ]) {
      const field = screen.getByLabelText(new RegExp(`^${label}`));
      expect(field).toHaveAttribute('aria-invalid', 'true');
      expect(field).toHaveAccessibleDescription(expect.stringContaining('This field is required.'));
    }
    // Optional ones stay quiet.
    expect(screen.getByLabelText(/^City/)).not.toHaveAttribute('aria-invalid');
    expect(sent).toHaveLength(0);
  });

  it('creates the organisation with lookup ids and returns to the list with "added successfully"', async () => {
    const { sent } = serveOrganisation(server, organisation());
    const { user } = renderRemote({ server, path: '/admin/organisation/new', permissions: ALL_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Organisation name/), 'New Clinic');
    await user.selectOptions(screen.getByLabelText(/^Country/), 'Germany');
    await user.type(screen.getByLabelText(/^Main contact/), 'Dr Lead');
    expect(screen.getByLabelText(/^Main contact/)).toHaveAccessibleDescription('The department lead.');
    await user.selectOptions(screen.getByLabelText(/^Learning management system/), 'Brightspace');
    await user.selectOptions(screen.getByLabelText(/^Default language/), 'Deutsch');
    await user.selectOptions(screen.getByLabelText(/^Radiation unit system/), 'SI');
    await user.selectOptions(screen.getByLabelText(/^Measurement standard/), 'Metric');
    // Grades of its courses wait for an educator's review (issue #23).
    await user.selectOptions(screen.getByLabelText(/^When grades go to the learning platform/), 'After an educator has reviewed the report');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Organisation New Clinic added successfully');
    expect(screen.getByRole('heading', { name: 'Organisations', level: 1 })).toBeInTheDocument();
    expect(sent).toEqual([
      {
        name: 'New Clinic',
        isActive: true,
        city: null,
        country: 102,
        mainContact: 'Dr Lead',
        primaryTechnicalContact: null,
        learningManagementSystem: 201,
        defaultLanguage: 302,
        radiationUnitSystem: 401,
        measurementStandard: 501,
        gradeRelease: 'after_review',
      },
    ]);
  });

  it("shows the server's field errors under their fields and in the error banner", async () => {
    serveOrganisation(server, organisation(), { errors: { name: ['An organisation with this name already exists.'] } });
    const { user } = renderRemote({ server, path: '/admin/organisation/new', permissions: ALL_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Organisation name/), 'Demo Hospital');
    await user.selectOptions(screen.getByLabelText(/^Country/), 'Germany');
    await user.type(screen.getByLabelText(/^Main contact/), 'Dr Lead');
    await user.selectOptions(screen.getByLabelText(/^Learning management system/), 'Brightspace');
    await user.selectOptions(screen.getByLabelText(/^Default language/), 'Deutsch');
    await user.selectOptions(screen.getByLabelText(/^Radiation unit system/), 'SI');
    await user.selectOptions(screen.getByLabelText(/^Measurement standard/), 'Metric');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Organisation name: An organisation with this name already exists.');
    expect(screen.getByLabelText(/^Organisation name/)).toHaveAccessibleDescription('An organisation with this name already exists.');
  });

  it('is not found for someone who may not create organisations', async () => {
    renderRemote({ server, path: '/admin/organisation/new', permissions: ORG_ADMIN_PERMISSIONS });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('organisation details', () => {
  it('saves changes in place with "Organisation details saved"', async () => {
    const { sent } = serveOrganisation(server, organisation());
    const { user } = renderRemote({ server, path: '/admin/organisation/1', permissions: ALL_ADMIN_PERMISSIONS });

    const name = await screen.findByLabelText(/^Organisation name/);
    await waitFor(() => expect(name).toHaveValue('Demo Hospital'));
    await user.clear(name);
    await user.type(name, 'Demo Hospital North');
    await user.click(screen.getByRole('checkbox', { name: 'Organisation is active' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Organisation details saved')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ name: 'Demo Hospital North', isActive: false, country: 101 });
    expect(await screen.findByRole('heading', { name: 'Demo Hospital North', level: 1 })).toBeInTheDocument();
  });

  it('leaves the active switch to global administrators and does not send it for others', async () => {
    const { sent } = serveOrganisation(server, organisation());
    const { user } = renderRemote({ server, path: '/admin/organisation/1', permissions: ORG_ADMIN_PERMISSIONS });

    await waitFor(() => expect(screen.getByLabelText(/^Organisation name/)).toHaveValue('Demo Hospital'));
    expect(screen.queryByRole('checkbox', { name: 'Organisation is active' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await screen.findByText('Organisation details saved');
    expect(sent[0]).not.toHaveProperty('isActive');
  });

  it('is read-only without the update permission', async () => {
    serveOrganisation(server, organisation());
    renderRemote({
      server,
      path: '/admin/organisation/1',
      permissions: ['global.client_access_admin_section', 'global.view_org'],
    });

    await waitFor(() => expect(screen.getByLabelText(/^Organisation name/)).toHaveValue('Demo Hospital'));
    expect(screen.getByLabelText(/^Organisation name/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Organisation details' })).getAllByRole('combobox')[0]).toBeDisabled();
  });
});
