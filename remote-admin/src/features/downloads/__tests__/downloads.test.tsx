import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { invalidPage, ORG_ADMIN_PERMISSIONS, paged, servePaged } from '../../../testing/admin-api';
import {
  serveDownload,
  serveInstallerFile,
  serveProductLookups,
  serveUploads,
  simulationDownload,
  SYS_ADMIN_PERMISSIONS,
} from '../../../testing/product-admin-api';
import { versionErrorsUnderVersion } from '../components/download-form';

const server = setupTestServer();
// Whole forms filled in and axe walks: seconds each on a busy machine, not a hang.
jest.setTimeout(30_000);

const LIST = '/api/v1/product/1/simulation-download';
const installer = () => new NodeFile(['MZ installer bytes'], 'setup-3.0.0.exe', { type: 'application/octet-stream' }) as unknown as File;

async function expectNoViolations(container: HTMLElement) {
  // "region" is the host's to satisfy: it mounts the remote inside its <main>.
  const results = await axe(container, { rules: { region: { enabled: false } } });
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

beforeEach(() => {
  serveProductLookups(server);
});

describe('download list', () => {
  it('shows id, version, operating system, status and an edit link, active first, with the Add button', async () => {
    const { queries } = servePaged(server, LIST, () =>
      paged([simulationDownload(), simulationDownload({ id: 10, version: '2.0.0', operatingSystem: 'mac', isActive: false })]),
    );
    const { container } = renderRemote({ server, path: '/admin/product/1/download', permissions: SYS_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Downloads' });
    const [header, first, second] = await within(table).findAllByRole('row');
    expect(within(header as HTMLElement).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'ID',
      'Version',
      'Operating system',
      'Status',
      'Actions',
    ]);
    expect(within(first as HTMLElement).getByRole('cell', { name: '11' })).toBeInTheDocument();
    expect(within(first as HTMLElement).getByRole('cell', { name: 'Windows' })).toBeInTheDocument();
    expect(within(first as HTMLElement).getByText('Active')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('cell', { name: 'macOS' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByText('Inactive')).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('link', { name: 'Edit 2.0.0 for macOS' })).toHaveAttribute(
      'href',
      '/admin/product/1/download/10',
    );
    expect(screen.getByRole('link', { name: 'Add download' })).toHaveAttribute('href', '/admin/product/1/download/new');
    const tabs = screen.getByRole('navigation', { name: 'Product sections' });
    expect(within(tabs).getByRole('link', { name: 'Downloads' })).toHaveAttribute('aria-current', 'page');
    expect(queries[0]?.get('ordering')).toBe('-isActive');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Downloads')).toHaveAttribute('aria-current', 'page');
    await expectNoViolations(container);
  });

  it('sorts by keyboard, pages and falls back to page 1 on "Invalid page."', async () => {
    const { queries } = servePaged(server, LIST, (query) => (query.get('page') === '2' ? invalidPage() : paged([simulationDownload()], 2)));
    const { user } = renderRemote({ server, path: '/admin/product/1/download', permissions: SYS_ADMIN_PERMISSIONS });

    (await screen.findByRole('button', { name: 'Version' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('version'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('-version'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.map((q) => q.get('page')).slice(-2)).toEqual(['2', '1']));
  });

  it('follows the user permissions, as the API does (docs/requirements.md#permissions): no tab or page without them', async () => {
    servePaged(server, LIST, () => paged([simulationDownload()]));
    servePaged(server, '/api/v1/product/1/configuration', () => paged([]));
    const productOnly = ['global.client_access_admin_section', 'global.manage_sim_config'];
    const { unmount } = renderRemote({ server, path: '/admin/product/1', permissions: productOnly });

    await screen.findByRole('heading', { name: 'Radiography', level: 1 });
    const tabs = screen.getByRole('navigation', { name: 'Product sections' });
    expect(within(tabs).getByRole('link', { name: 'Product configurations' })).toBeInTheDocument();
    expect(within(tabs).queryByRole('link', { name: 'Downloads' })).not.toBeInTheDocument();
    unmount();

    renderRemote({ server, path: '/admin/product/1/download', permissions: productOnly });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('is read-only, without Add or Save, for a reader of users who may not change them', async () => {
    servePaged(server, LIST, () => paged([simulationDownload()]));
    serveDownload(server, simulationDownload());
    const reader = ['global.client_access_admin_section', 'global.manage_sim_config', 'global.view_user'];
    const { unmount } = renderRemote({ server, path: '/admin/product/1/download', permissions: reader });

    expect(await screen.findByRole('link', { name: 'View 2.1.0 for Windows' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add download' })).not.toBeInTheDocument();
    unmount();

    renderRemote({ server, path: '/admin/product/1/download/11', permissions: reader });
    expect(await screen.findByLabelText(/^Version/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  // The API answers 403 to anyone but a global administrator adding or changing a version (it is
  // offered to every entitled organisation), whatever user permissions they hold.
  it('offers no Add or Edit to an administrator with the user permissions who is not a global one', async () => {
    servePaged(server, LIST, () => paged([simulationDownload()]));
    serveDownload(server, simulationDownload());
    const orgAdmin = [...ORG_ADMIN_PERMISSIONS, 'global.manage_sim_config'];
    const { unmount } = renderRemote({ server, path: '/admin/product/1/download', permissions: orgAdmin });

    expect(await screen.findByRole('link', { name: 'View 2.1.0 for Windows' })).toHaveAttribute('href', '/admin/product/1/download/11');
    expect(screen.queryByRole('link', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add download' })).not.toBeInTheDocument();
    unmount();

    const { unmount: unmountForm } = renderRemote({ server, path: '/admin/product/1/download/11', permissions: orgAdmin });
    expect(await screen.findByLabelText(/^Version/)).toBeDisabled();
    expect(screen.getByLabelText(/^File URL/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    unmountForm();

    renderRemote({ server, path: '/admin/product/1/download/new', permissions: orgAdmin });
    // The product frame renders around it once the product lookup answers, so wait for that too.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Create' })).not.toBeInTheDocument();
  });

  it('offers Add and Edit to a global administrator', async () => {
    servePaged(server, LIST, () => paged([simulationDownload()]));
    renderRemote({ server, path: '/admin/product/1/download', permissions: SYS_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('link', { name: 'Edit 2.1.0 for Windows' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add download' })).toBeInTheDocument();
  });
});

describe("new download ('Download details')", () => {
  beforeEach(() => servePaged(server, LIST, () => paged([simulationDownload()])));

  it('shows the product read-only, Activate version ticked, and needs version, operating system and file URL', async () => {
    const { sent } = serveDownload(server, simulationDownload());
    const { user, container } = renderRemote({ server, path: '/admin/product/1/download/new', permissions: SYS_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('heading', { name: 'Download details', level: 2 })).toBeInTheDocument();
    const product = screen.getByLabelText('Product');
    expect(product).toHaveValue('Radiography');
    expect(product).toHaveAttribute('readonly');
    expect(screen.getByRole('checkbox', { name: 'Activate version' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/admin/product/1/download');
    await expectNoViolations(container);
    await user.click(screen.getByRole('button', { name: 'Create' }));

    for (const label of [/^Version/, /^Operating system/, /^File URL/]) {
      expect(screen.getByLabelText(label)).toHaveAccessibleDescription(expect.stringContaining('This field is required.'));
    }
    expect(sent).toHaveLength(0);
  });

  it('refuses a version that is not major.minor.patch and a file URL that is not https', async () => {
    const { sent } = serveDownload(server, simulationDownload());
    const { user } = renderRemote({ server, path: '/admin/product/1/download/new', permissions: SYS_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Version/), '3.0');
    await user.selectOptions(screen.getByLabelText(/^Operating system/), 'Windows');
    await user.type(screen.getByLabelText(/^File URL/), 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(screen.getByLabelText(/^Version/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter the version as major.minor.patch, e.g. 3.0.0.'),
    );
    expect(screen.getByLabelText(/^File URL/)).toHaveAccessibleDescription(expect.stringContaining('Enter an https:// address.'));
    await user.clear(screen.getByLabelText(/^File URL/));
    await user.type(screen.getByLabelText(/^File URL/), 'http://downloads.example.com/a.exe');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByLabelText(/^File URL/)).toHaveAccessibleDescription(expect.stringContaining('Enter an https:// address.'));
    expect(sent).toHaveLength(0);
  });

  it('uploads the installer, creates the version and returns to the list with its success message', async () => {
    const { kinds } = serveUploads(server);
    const { sent } = serveDownload(server, simulationDownload());
    const { user } = renderRemote({ server, path: '/admin/product/1/download/new', permissions: SYS_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Version/), '3.0.0');
    await user.selectOptions(screen.getByLabelText(/^Operating system/), 'Windows');
    await user.type(screen.getByLabelText(/^File URL/), 'https://downloads.example.com/setup-3.0.0.exe');
    await user.upload(screen.getByLabelText(/^Installer file/), installer());
    expect(await screen.findByText('setup-3.0.0.exe')).toBeInTheDocument();
    expect(screen.getByText('Uploaded')).toBeInTheDocument();
    // A fresh upload belongs to nothing yet: no download action for it.
    expect(screen.queryByRole('button', { name: /^Download / })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Version 3.0.0 for Windows added successfully')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Downloads' })).toBeInTheDocument();
    expect(kinds).toEqual(['sim-installation-file']);
    expect(sent).toEqual([
      {
        version: '3.0.0',
        operatingSystem: 'windows',
        fileUrl: 'https://downloads.example.com/setup-3.0.0.exe',
        fileId: '00000000-0000-4000-8000-000000000001',
        isActive: true,
      },
    ]);
  });

  it('shows every field of one 400 under its own input, as the API answers several bad fields at once', async () => {
    // The body POST …/simulation-download answers for a bad version, operating system and URL.
    serveDownload(server, simulationDownload(), {
      errors: {
        version: ['Enter the version as major.minor.patch, e.g. 3.0.0.'],
        operatingSystem: ['must be one of: "windows", "mac"'],
        fileUrl: ['Enter an https:// address.'],
      },
    });
    const { user } = renderRemote({ server, path: '/admin/product/1/download/new', permissions: SYS_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Version/), '3.0.0');
    await user.selectOptions(screen.getByLabelText(/^Operating system/), 'macOS');
    await user.type(screen.getByLabelText(/^File URL/), 'https://downloads.example.com/a.dmg');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await screen.findByRole('alert');
    expect(screen.getByLabelText(/^Version/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter the version as major.minor.patch, e.g. 3.0.0.'),
    );
    expect(screen.getByLabelText(/^Operating system/)).toHaveAccessibleDescription(
      expect.stringContaining('must be one of: "windows", "mac"'),
    );
    expect(screen.getByLabelText(/^File URL/)).toHaveAccessibleDescription(
      expect.stringContaining('Enter an https:// address.'),
    );
  });

  it('shows server errors under version (also those on its parts), operating system, file and isActive', async () => {
    serveDownload(server, simulationDownload(), {
      errors: {
        version: ['Version 3.0.0 for windows already exists for this product.'],
        majorVersion: ['Ensure this value is less than or equal to 9999.'],
        operatingSystem: ['"linux" is not a valid choice.'],
        file: ['This file has already been used or is not a finished upload.'],
        isActive: ['Must be a valid boolean.'],
      },
    });
    const { user } = renderRemote({ server, path: '/admin/product/1/download/new', permissions: SYS_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Version/), '3.0.0');
    await user.selectOptions(screen.getByLabelText(/^Operating system/), 'macOS');
    await user.type(screen.getByLabelText(/^File URL/), 'https://downloads.example.com/a.dmg');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Version: Version 3.0.0 for windows already exists for this product.');
    expect(banner).toHaveTextContent('Activate version: Must be a valid boolean.');
    const version = screen.getByLabelText(/^Version/);
    expect(version).toHaveAccessibleDescription(expect.stringContaining('Version 3.0.0 for windows already exists for this product.'));
    expect(version).toHaveAccessibleDescription(expect.stringContaining('Ensure this value is less than or equal to 9999.'));
    expect(screen.getByLabelText(/^Operating system/)).toHaveAccessibleDescription(expect.stringContaining('"linux" is not a valid choice.'));
    expect(screen.getByLabelText(/^Installer file/)).toHaveAccessibleDescription(
      expect.stringContaining('This file has already been used or is not a finished upload.'),
    );
    expect(screen.getByRole('checkbox', { name: 'Activate version' })).toHaveAccessibleDescription(
      expect.stringContaining('Must be a valid boolean.'),
    );
  });
});

describe('server messages in German', () => {
  afterEach(() => i18next.changeLanguage('en'));

  it('shows the duplicate version and the other #9 messages translated, with their values', async () => {
    await i18next.changeLanguage('de');
    serveDownload(server, simulationDownload(), {
      errors: {
        version: ['Version 3.0.0 for mac already exists for this product.'],
        fileUrl: ['Enter an https:// address.'],
        file: ['Upload the installer again: this file is not an installer you uploaded.'],
      },
    });
    const { user } = renderRemote({ server, path: '/admin/product/1/download/new', permissions: SYS_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Version\b(?! aktivieren)/), '3.0.0');
    await user.selectOptions(screen.getByLabelText(/^Betriebssystem/), 'macOS');
    await user.type(screen.getByLabelText(/^Datei-URL/), 'https://downloads.example.com/a.dmg');
    await user.click(screen.getByRole('button', { name: 'Erstellen' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Version 3.0.0 für mac gibt es für dieses Produkt bereits.');
    expect(screen.getByLabelText(/^Version\b(?! aktivieren)/)).toHaveAccessibleDescription(
      expect.stringContaining('Version 3.0.0 für mac gibt es für dieses Produkt bereits.'),
    );
    expect(screen.getByLabelText(/^Datei-URL/)).toHaveAccessibleDescription(expect.stringContaining('Geben Sie eine https://-Adresse ein.'));
    expect(banner).not.toHaveTextContent('already exists');
  });
});

describe('edit download', () => {
  it('shows the stored version with its installer, downloads it through a fresh signed URL, and saves', async () => {
    const { asked } = serveInstallerFile(server, 'https://storage.example.com/signed/radiography-2.1.0.zip?sig=1');
    const { sent } = serveDownload(server, simulationDownload());
    const clicks: string[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.href} as ${this.download}`);
    });
    try {
      const { user, container } = renderRemote({ server, path: '/admin/product/1/download/11', permissions: SYS_ADMIN_PERMISSIONS });

      const version = await screen.findByLabelText(/^Version/);
      expect(version).toHaveValue('2.1.0');
      expect(screen.getByLabelText(/^Operating system/)).toHaveValue('windows');
      expect(screen.getByText('radiography-2.1.0.zip')).toBeInTheDocument();
      expect(screen.getByText('Saved')).toBeInTheDocument();
      await expectNoViolations(container);

      // The download action works from the keyboard.
      screen.getByRole('button', { name: 'Download radiography-2.1.0.zip' }).focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(clicks).toEqual(['https://storage.example.com/signed/radiography-2.1.0.zip?sig=1 as radiography-2.1.0.zip']));
      expect(asked).toEqual(['7c2e1f00-3b7a-4d55-a1a0-6d2b5c4e0f21']);

      await user.click(screen.getByRole('checkbox', { name: 'Activate version' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Download details saved')).toBeInTheDocument();
      expect(sent).toEqual([
        {
          version: '2.1.0',
          operatingSystem: 'windows',
          fileUrl: 'https://downloads.example.com/radiography-2.1.0.zip',
          fileId: '7c2e1f00-3b7a-4d55-a1a0-6d2b5c4e0f21',
          isActive: false,
        },
      ]);
      expect(screen.getByRole('checkbox', { name: 'Activate version' })).not.toBeChecked();
    } finally {
      click.mockRestore();
    }
  });

  it('follows no signed URL that is neither https nor the portal storage', async () => {
    serveInstallerFile(server, 'javascript:alert(1)');
    serveDownload(server, simulationDownload());
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const { user } = renderRemote({ server, path: '/admin/product/1/download/11', permissions: SYS_ADMIN_PERMISSIONS });
      await user.click(await screen.findByRole('button', { name: 'Download radiography-2.1.0.zip' }));
      expect(await screen.findByText('The installer could not be downloaded. Please try again later.')).toBeInTheDocument();
      expect(click).not.toHaveBeenCalled();
    } finally {
      click.mockRestore();
      error.mockRestore();
    }
  });

  it('has no download action for a version with only a file URL', async () => {
    serveDownload(server, simulationDownload({ file: null }));
    renderRemote({ server, path: '/admin/product/1/download/11', permissions: SYS_ADMIN_PERMISSIONS });
    expect(await screen.findByLabelText(/^Version/)).toHaveValue('2.1.0');
    expect(screen.queryByRole('button', { name: /^Download / })).not.toBeInTheDocument();
  });
});

describe('versionErrorsUnderVersion', () => {
  it('moves the parts’ messages under version and leaves the rest', () => {
    expect(versionErrorsUnderVersion({ minorVersion: ['a'], patchVersion: ['b'], fileUrl: ['c'] })).toEqual({ version: ['a', 'b'], fileUrl: ['c'] });
    expect(versionErrorsUnderVersion({ fileUrl: ['c'] })).toEqual({ fileUrl: ['c'] });
  });
});
