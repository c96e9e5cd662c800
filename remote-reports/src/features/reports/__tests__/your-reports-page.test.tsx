import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { invalidPage, paged, reportRow, serveReportList } from '../../../testing/report-fixtures';

const server = setupTestServer();
const OWN = ['global.view_own_reports'];

beforeAll(() => {
  process.env.TZ = 'UTC';
});

describe('your reports', () => {
  it('lists the reports with their columns, newest first, ten to a page', async () => {
    const { queries } = serveReportList(server, '/api/v1/report', () =>
      paged([
        reportRow({ id: 2, uuid: '2b1e3c1a-1111-4a4a-8a8a-000000000002', session: 'Hand PA', analysisStatusSummary: 'partial' }),
        reportRow({ id: 1, hasReportDetails: false, analysisStatusSummary: 'not_started' }),
      ]),
    );
    renderRemote({ server, permissions: OWN });

    const table = await screen.findByRole('table', { name: 'Your reports' });
    const rows = await within(table).findAllByRole('row');
    expect(rows).toHaveLength(3);
    const first = rows[1] as HTMLElement;
    expect(within(first).getByRole('cell', { name: 'Hand PA' })).toBeInTheDocument();
    expect(within(first).getByRole('cell', { name: '5/03/2026 14:05pm' })).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'Partially analysed' })).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'View report' })).toHaveAttribute(
      'href',
      '/report/2b1e3c1a-1111-4a4a-8a8a-000000000002',
    );
    const second = rows[2] as HTMLElement;
    expect(within(second).getByRole('img', { name: 'Not analysed' })).toBeInTheDocument();
    expect(within(second).queryByRole('link', { name: 'View report' })).not.toBeInTheDocument();

    expect(queries[0]?.get('ordering')).toBe('-id');
    expect(queries[0]?.get('page')).toBe('1');
    expect(queries[0]?.get('pageSize')).toBe('10');
  });

  it('searches once typing pauses and starts again at page 1', async () => {
    const user = userEvent.setup();
    const { queries } = serveReportList(server, '/api/v1/report', () => paged([reportRow()], 3));
    renderRemote({ server, permissions: OWN });

    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.at(-1)?.get('page')).toBe('2'));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'knee');

    await waitFor(() => expect(queries.at(-1)?.get('filter')).toBe('knee'));
    expect(queries.at(-1)?.get('page')).toBe('1');
    // Debounced: no request for the half-typed words.
    expect(queries.filter((q) => q.has('filter')).map((q) => q.get('filter'))).toEqual(['knee']);
  });

  it('sorts by a header, flipping between ascending and descending', async () => {
    const user = userEvent.setup();
    const { queries } = serveReportList(server, '/api/v1/report', () => paged([reportRow()]));
    renderRemote({ server, permissions: OWN });

    const header = await screen.findByRole('button', { name: 'Simulation' });
    await user.click(header);
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('simulation'));
    await user.click(screen.getByRole('button', { name: 'Simulation' }));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('-simulation'));
    await user.click(screen.getByRole('button', { name: 'Simulation' }));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('simulation'));
  });

  it("goes back to page 1 when the API answers 'Invalid page.'", async () => {
    const user = userEvent.setup();
    const { queries } = serveReportList(server, '/api/v1/report', (query) =>
      query.get('page') === '3' ? invalidPage() : paged([reportRow({ session: `Page ${query.get('page')} row` })], 3),
    );
    renderRemote({ server, permissions: OWN });

    await user.click(await screen.findByRole('button', { name: 'Page 3' }));

    // Page 1 may show from the cache before its revalidation request goes out.
    expect(await screen.findByRole('cell', { name: 'Page 1 row' })).toBeInTheDocument();
    await waitFor(() => expect(queries.map((q) => q.get('page'))).toEqual(['1', '3', '1']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows 'No records found' for an empty list and an error when loading fails", async () => {
    serveReportList(server, '/api/v1/report', () => paged([]));
    const { unmount } = renderRemote({ server, permissions: OWN });
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    unmount();

    serveReportList(server, '/api/v1/report', () => HttpResponse.json({ detail: 'Internal server error.' }, { status: 500 }));
    renderRemote({ server, permissions: OWN });
    expect(await screen.findByRole('alert')).toHaveTextContent('The data could not be loaded');
  });
});
