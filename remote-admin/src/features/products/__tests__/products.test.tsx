import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from 'jest-axe';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { ALL_ADMIN_PERMISSIONS, invalidPage, paged, servePaged } from '../../../testing/admin-api';
import {
  configuration,
  serveConfiguration,
  serveProductLookups,
  serveUploads,
  SYS_ADMIN_PERMISSIONS,
} from '../../../testing/product-admin-api';

const server = setupTestServer();
// Whole forms filled in and axe walks: seconds each on a busy machine, not a hang.
jest.setTimeout(30_000);

const LIST = '/api/v1/product/1/configuration';
// Node's File: the upload's FormData is Node's (jest-fixed-jsdom), which refuses jsdom's File.
const json = (name: string, text = '{"view":"hip"}') => new NodeFile([text], name, { type: 'application/json' }) as unknown as File;

async function expectNoViolations(container: HTMLElement) {
  // "region" is the host's to satisfy: it mounts the remote inside its <main>.
  const results = await axe(container, { rules: { region: { enabled: false } } });
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

beforeEach(() => {
  serveProductLookups(server);
});

describe('product list', () => {
  it('lists every product with a link to its page, under the Product configurations section tab', async () => {
    const { container } = renderRemote({ server, path: '/admin/product', permissions: SYS_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Products' });
    expect(await within(table).findByRole('link', { name: 'Radiography' })).toHaveAttribute('href', '/admin/product/1');
    expect(within(table).getByRole('cell', { name: 'X-ray positioning' })).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'Radiation safety' })).toHaveAttribute('href', '/admin/product/2');
    const tabs = screen.getByRole('navigation', { name: 'Administration sections' });
    expect(within(tabs).getByRole('link', { name: 'Product configurations' })).toHaveAttribute('aria-current', 'page');
    await expectNoViolations(container);
  });

  it('is page not found, and has no section tab, without the configuration permission', async () => {
    servePaged(server, '/api/v1/organisation', () => paged([]));
    renderRemote({ server, path: '/admin/product', permissions: ALL_ADMIN_PERMISSIONS });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();

    renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });
    const tabs = await screen.findByRole('navigation', { name: 'Administration sections' });
    expect(within(tabs).queryByRole('link', { name: 'Product configurations' })).not.toBeInTheDocument();
  });

  it('answers page not found for a product that does not exist', async () => {
    const { queries } = serveProductLookups(server);
    renderRemote({ server, path: '/admin/product/99', permissions: SYS_ADMIN_PERMISSIONS });
    // Asked for the products first: the answer, not a page still loading, is what is not found.
    await waitFor(() => expect(queries.some((q) => q.get('field') === 'product')).toBe(true));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Radiography' })).not.toBeInTheDocument();
  });
});

describe('product configurations', () => {
  it('shows the product with its tabs and breadcrumbs, and its configurations with category names', async () => {
    const { queries } = servePaged(server, LIST, () =>
      paged([configuration(), configuration({ id: 6, configurationName: 'Skull PA', practiceViewCategory: 32, isSelfAssessment: false })]),
    );
    const { container } = renderRemote({ server, path: '/admin/product/1', permissions: SYS_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('heading', { name: 'Radiography', level: 1 })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Product sections' });
    expect(within(tabs).getByRole('link', { name: 'Product configurations' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs).getByRole('link', { name: 'Downloads' })).toHaveAttribute('href', '/admin/product/1/download');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getAllByRole('link').map((a) => a.textContent)).toEqual(['Administration', 'Product configurations', 'Radiography']);

    const table = await screen.findByRole('table', { name: 'Product configurations' });
    const [, first, second] = await within(table).findAllByRole('row');
    expect(within(first as HTMLElement).getByRole('cell', { name: 'Lower limb' })).toBeInTheDocument();
    expect(within(first as HTMLElement).getByRole('cell', { name: 'Yes' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('cell', { name: 'Skull' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('cell', { name: 'No' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('link', { name: 'Edit Skull PA' })).toHaveAttribute('href', '/admin/product/1/configuration/6');
    expect(screen.getByRole('link', { name: 'New configuration' })).toHaveAttribute('href', '/admin/product/1/configuration/new');
    expect(queries[0]?.get('ordering')).toBe('configurationName');
    await expectNoViolations(container);
  });

  it('searches, sorts by keyboard and falls back to page 1 on "Invalid page."', async () => {
    const { queries } = servePaged(server, LIST, (query) => (query.get('page') === '2' ? invalidPage() : paged([configuration()], 2)));
    const { user } = renderRemote({ server, path: '/admin/product/1', permissions: SYS_ADMIN_PERMISSIONS });

    (await screen.findByRole('button', { name: 'Practice view category' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('practiceViewCategory'));
    await user.type(screen.getByRole('searchbox', { name: 'Search configurations' }), 'hip');
    await waitFor(() => expect(queries.at(-1)?.get('filter')).toBe('hip'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.map((q) => q.get('page')).slice(-2)).toEqual(['2', '1']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the skeleton while loading, then "No records found" when there are none', async () => {
    let answer: (() => void) | undefined;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get(LIST, async () => {
        await gate;
        return HttpResponse.json(paged([]));
      }),
    );
    renderRemote({ server, path: '/admin/product/1', permissions: SYS_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Product configurations' });
    await waitFor(() => expect(table).toHaveAttribute('aria-busy', 'true'));
    answer?.();
    expect(await within(table).findByText('No records found')).toBeInTheDocument();
  });
});

describe('new configuration', () => {
  beforeEach(() => servePaged(server, LIST, () => paged([configuration()])));

  it('needs a name, a configuration file and a practice view category; self-assessment is ticked', async () => {
    const { sent } = serveConfiguration(server, configuration());
    const { user, container } = renderRemote({ server, path: '/admin/product/1/configuration/new', permissions: SYS_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('checkbox', { name: 'Self-assessment configuration' })).toBeChecked();
    await expectNoViolations(container);
    await user.click(screen.getByRole('button', { name: 'Create' }));

    for (const label of ['Configuration name', 'Configuration file (JSON)', 'Practice view category']) {
      expect(screen.getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`))).toHaveAccessibleDescription(
        expect.stringContaining('This field is required.'),
      );
    }
    expect(screen.getByLabelText(/^Translation file/)).not.toHaveAccessibleDescription(expect.stringContaining('required'));
    expect(sent).toHaveLength(0);
  });

  it('refuses a configuration file that is not JSON before uploading it', async () => {
    const { kinds } = serveUploads(server);
    renderRemote({ server, path: '/admin/product/1/configuration/new', permissions: SYS_ADMIN_PERMISSIONS });
    // The file picker offers only .json; one dragged or typed in may still be anything.
    const user = userEvent.setup({ applyAccept: false });

    const input = await screen.findByLabelText(/^Configuration file/);
    await user.upload(input, new NodeFile(['a,b'], 'hip.csv', { type: 'text/csv' }) as unknown as File);

    expect(input).toHaveAccessibleDescription(expect.stringContaining('File extension is not valid. Allowed extensions are: json.'));
    expect(kinds).toEqual([]);
  });

  it('uploads both files to their routes, then creates and lists it with "added successfully"', async () => {
    const { kinds } = serveUploads(server);
    const { sent } = serveConfiguration(server, configuration());
    const { user } = renderRemote({ server, path: '/admin/product/1/configuration/new', permissions: SYS_ADMIN_PERMISSIONS });

    await user.type(await screen.findByLabelText(/^Configuration name/), 'Knee lateral');
    await user.upload(screen.getByLabelText(/^Configuration file/), json('knee.json'));
    expect(await screen.findByText('knee.json')).toBeInTheDocument();
    await user.upload(screen.getByLabelText(/^Translation file/), json('texts.json', '{"title":"Knie"}'));
    expect(await screen.findByText('texts.json')).toBeInTheDocument();
    expect(screen.getAllByText('Uploaded')).toHaveLength(2);
    await user.selectOptions(screen.getByLabelText(/^Practice view category/), 'Skull');
    await user.click(screen.getByRole('checkbox', { name: 'Self-assessment configuration' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Product configuration Knee lateral added successfully')).toBeInTheDocument();
    expect(kinds).toEqual(['sim-config', 'sim-config-translation']);
    expect(sent).toEqual([
      {
        configurationName: 'Knee lateral',
        practiceViewCategory: 32,
        isSelfAssessment: false,
        configFile: '00000000-0000-4000-8000-000000000001',
        translationFile: '00000000-0000-4000-8000-000000000002',
      },
    ]);
  });

  it("shows the upload route's refusal under the file and clears it", async () => {
    serveUploads(server, { fail: { file: ['$.views[0].angle: must be number'] } });
    const { user } = renderRemote({ server, path: '/admin/product/1/configuration/new', permissions: SYS_ADMIN_PERMISSIONS });

    const input = await screen.findByLabelText(/^Configuration file/);
    await user.upload(input, json('knee.json'));

    await waitFor(() => expect(input).toHaveAccessibleDescription(expect.stringContaining('$.views[0].angle: must be number')));
    expect(screen.queryByText('Uploaded')).not.toBeInTheDocument();
  });
});

describe('edit configuration', () => {
  it('shows the stored files as saved, saves with "Product configuration saved" and names the category lookup by product', async () => {
    const { queries } = serveProductLookups(server);
    const { sent } = serveConfiguration(server, configuration());
    const { user } = renderRemote({ server, path: '/admin/product/1/configuration/5', permissions: SYS_ADMIN_PERMISSIONS });

    const name = await screen.findByLabelText(/^Configuration name/);
    expect(name).toHaveValue('Hip AP');
    expect(screen.getByText('hip.json')).toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Practice view category/)).toHaveValue('31');
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Hip AP')).toHaveAttribute('aria-current', 'page');
    expect(queries.find((q) => q.get('field') === 'practice_view_category')?.get('product_id')).toBe('1');

    await user.clear(name);
    await user.type(name, 'Hip AP standing');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Product configuration saved')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        configurationName: 'Hip AP standing',
        practiceViewCategory: 31,
        isSelfAssessment: true,
        configFile: '4a0d4c7e-1b7a-4d55-a1a0-6d2b5c4e0f11',
        translationFile: null,
      },
    ]);
  });

  it("shows the server's refusals under their fields and in the banner", async () => {
    serveConfiguration(server, configuration(), {
      errors: {
        configFile: ['$.views: must have required property "views"'],
        practiceViewCategory: ['Choose a practice view category of this product.'],
      },
    });
    const { user } = renderRemote({ server, path: '/admin/product/1/configuration/5', permissions: SYS_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Save' }));

    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Configuration file (JSON): $.views: must have required property "views"');
    expect(screen.getByLabelText(/^Configuration file/)).toHaveAccessibleDescription(
      expect.stringContaining('$.views: must have required property "views"'),
    );
    expect(screen.getByLabelText(/^Practice view category/)).toHaveAccessibleDescription(
      expect.stringContaining('Choose a practice view category of this product.'),
    );
  });
});
