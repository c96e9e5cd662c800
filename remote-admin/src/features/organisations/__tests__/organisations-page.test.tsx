import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { ALL_ADMIN_PERMISSIONS, invalidPage, organisation, ORG_ADMIN_PERMISSIONS, paged, servePaged } from '../../../testing/admin-api';

const server = setupTestServer();
const LIST = '/api/v1/organisation';

describe('organisations list', () => {
  it('shows name, status pill and an edit link per organisation, sorted by name, ten to a page', async () => {
    const { queries } = servePaged(server, LIST, () =>
      paged([organisation(), organisation({ id: 2, name: 'Other College', isActive: false })]),
    );
    renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });

    const table = await screen.findByRole('table', { name: 'Organisations' });
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(3);
    const second = rows[2] as HTMLElement;
    expect(within(second).getByRole('cell', { name: 'Other College' })).toBeInTheDocument();
    expect(within(second).getByText('Inactive')).toBeInTheDocument();
    expect(within(second).getByRole('link', { name: 'Edit Other College' })).toHaveAttribute('href', '/admin/organisation/2');
    expect(within(rows[1] as HTMLElement).getByText('Active')).toBeInTheDocument();
    expect(queries[0]?.get('ordering')).toBe('name');
    expect(queries[0]?.get('page')).toBe('1');
    expect(queries[0]?.get('pageSize')).toBe('10');
  });

  it('offers "New organisation" only to those who may create one', async () => {
    servePaged(server, LIST, () => paged([organisation()]));
    const { unmount } = renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });
    expect(await screen.findByRole('link', { name: 'New organisation' })).toHaveAttribute('href', '/admin/organisation/new');
    unmount();

    renderRemote({ server, path: '/admin/organisation', permissions: ORG_ADMIN_PERMISSIONS });
    expect(await screen.findByRole('cell', { name: 'Demo Hospital' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New organisation' })).not.toBeInTheDocument();
  });

  it('searches once typing pauses, from page 1', async () => {
    const { queries } = servePaged(server, LIST, () => paged([organisation()], 3));
    const { user } = renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.at(-1)?.get('page')).toBe('2'));
    await user.type(screen.getByRole('searchbox', { name: 'Search organisations' }), 'demo');

    await waitFor(() => expect(queries.at(-1)?.get('filter')).toBe('demo'));
    expect(queries.at(-1)?.get('page')).toBe('1');
    expect(queries.filter((q) => q.has('filter')).map((q) => q.get('filter'))).toEqual(['demo']);
  });

  it('sorts by name and by status from their headers', async () => {
    const { queries } = servePaged(server, LIST, () => paged([organisation()]));
    const { user } = renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Organisation name' }));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('-name'));
    await user.click(screen.getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('isActive'));
  });

  it("goes back to page 1 when the API answers 'Invalid page.'", async () => {
    const { queries } = servePaged(server, LIST, (query) =>
      query.get('page') === '3' ? invalidPage() : paged([organisation({ name: `Page ${query.get('page')} org` })], 3),
    );
    const { user } = renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });

    await user.click(await screen.findByRole('button', { name: 'Page 3' }));

    expect(await screen.findByRole('cell', { name: 'Page 1 org' })).toBeInTheDocument();
    await waitFor(() => expect(queries.map((q) => q.get('page'))).toEqual(['1', '3', '1']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a skeleton while loading, then "No records found" for an empty list', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    servePaged(server, LIST, () => paged([]));
    server.use(
      // Holds the first answer so the loading state can be seen.
      (await import('msw')).http.get(LIST, async () => {
        await gate;
        return HttpResponse.json(paged([]));
      }),
    );
    renderRemote({ server, path: '/admin/organisation', permissions: ALL_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('status')).toHaveTextContent('Loading...');
    expect(document.querySelectorAll('[data-skeleton-row]')).toHaveLength(10);
    release();
    expect(await screen.findByText('No records found')).toBeInTheDocument();
  });
});
