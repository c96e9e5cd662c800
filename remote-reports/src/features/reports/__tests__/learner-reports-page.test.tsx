import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { delay, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { invalidPage, learnerRow, paged, serveReportList } from '../../../testing/report-fixtures';

const server = setupTestServer();
const EDUCATOR = ['global.view_own_reports', 'global.view_org_reports'];

beforeAll(() => {
  process.env.TZ = 'UTC';
});

// The grid is loaded lazily and lays itself out on first render; on a busy machine that takes
// longer than testing-library's default wait of one second.
const GRID_WAIT = { timeout: 5000 };

const rowsOf = (grid: HTMLElement) => within(grid).getAllByRole('row').slice(1);

describe('learner reports', () => {
  it('shows the learners’ reports in the grid with user and a link to each detailed report', async () => {
    serveReportList(server, '/api/v1/report/learner', () =>
      paged([
        learnerRow({ id: 7, uuid: '7a1e3c1a-1111-4a4a-8a8a-000000000007', user: 'Ada Apprentice', session: 'Skull lateral' }),
        learnerRow({ id: 6, user: 'Ben Beginner', hasReportDetails: false, analysisStatusSummary: 'not_started' }),
      ]),
    );
    renderRemote({ server, path: '/report/learner', permissions: EDUCATOR });

    expect(await screen.findByText('Ada Apprentice', {}, GRID_WAIT)).toBeInTheDocument();
    const grid = screen.getByRole('grid');
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent?.trim())).toEqual([
      'Simulation',
      'Session',
      'User',
      'Recorded',
      'Analysis status',
      'Report',
    ]);
    const [ada, ben] = rowsOf(grid) as [HTMLElement, HTMLElement];
    expect(within(ada).getByText('Skull lateral')).toBeInTheDocument();
    expect(within(ada).getByText('5/03/2026 14:05pm')).toBeInTheDocument();
    expect(within(ada).getByRole('img', { name: 'Analysis completed' })).toBeInTheDocument();
    expect(within(ada).getByRole('link', { name: 'View report' })).toHaveAttribute(
      'href',
      '/report/7a1e3c1a-1111-4a4a-8a8a-000000000007',
    );
    expect(within(ben).getByText('Ben Beginner')).toBeInTheDocument();
    expect(within(ben).getByRole('img', { name: 'Not analysed' })).toBeInTheDocument();
    expect(within(ben).queryByRole('link')).not.toBeInTheDocument();
  });

  it('follows a report link with Enter on its focused grid cell (keyboard only)', async () => {
    const uuid = '7a1e3c1a-1111-4a4a-8a8a-000000000007';
    serveReportList(server, '/api/v1/report/learner', () => paged([learnerRow({ id: 7, uuid })]));
    const { router } = renderRemote({ server, path: '/report/learner', permissions: EDUCATOR });

    const link = await screen.findByRole('link', { name: 'View report' }, GRID_WAIT);
    const cell = link.closest('[role="gridcell"]') as HTMLElement;
    cell.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/report/${uuid}`));
  });

  it('asks for id descending first and sorts by a header ascending, then descending, never unsorted', async () => {
    const user = userEvent.setup();
    const { queries } = serveReportList(server, '/api/v1/report/learner', () => paged([learnerRow()]));
    renderRemote({ server, path: '/report/learner', permissions: ['global.view_all_reports'] });

    await screen.findByText('Lena Learner', {}, GRID_WAIT);
    expect(queries[0]?.get('ordering')).toBe('-id');
    expect(queries[0]?.get('pageSize')).toBe('10');

    const header = () => screen.getByRole('columnheader', { name: /User/ });
    await user.click(within(header()).getByText('User'));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('user'));
    await waitFor(() => expect(header()).toHaveAttribute('aria-sort', 'ascending'));
    await user.click(within(header()).getByText('User'));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('-user'));
    await waitFor(() => expect(header()).toHaveAttribute('aria-sort', 'descending'));
    await user.click(within(header()).getByText('User'));
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('user'));
  });

  it('searches with the debounced "Search" box', async () => {
    const user = userEvent.setup();
    const { queries } = serveReportList(server, '/api/v1/report/learner', (query) =>
      paged([learnerRow({ user: query.get('filter') ? 'Found Learner' : 'Lena Learner' })]),
    );
    renderRemote({ server, path: '/report/learner', permissions: EDUCATOR });

    await screen.findByText('Lena Learner', {}, GRID_WAIT);
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ada');

    expect(await screen.findByText('Found Learner', {}, GRID_WAIT)).toBeInTheDocument();
    expect(queries.filter((q) => q.has('filter')).map((q) => q.get('filter'))).toEqual(['ada']);
  });

  it("pages on the server and goes back to page 1 on 'Invalid page.'", async () => {
    const user = userEvent.setup();
    const { queries } = serveReportList(server, '/api/v1/report/learner', (query) =>
      query.get('page') === '4' ? invalidPage() : paged([learnerRow({ user: `Learner on page ${query.get('page')}` })], 4),
    );
    renderRemote({ server, path: '/report/learner', permissions: EDUCATOR });

    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Learner on page 2', {}, GRID_WAIT)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 4' }));

    // Page 1 may show from the cache before its revalidation request goes out.
    expect(await screen.findByText('Learner on page 1', {}, GRID_WAIT)).toBeInTheDocument();
    await waitFor(() => expect(queries.map((q) => q.get('page'))).toEqual(['1', '2', '4', '1']));
  });

  it('opens already searched with ?filter= (a text search, kept for links that carry one)', async () => {
    const { queries } = serveReportList(server, '/api/v1/report/learner', () => paged([learnerRow({ user: 'Ada Apprentice' })]));
    renderRemote({ server, path: '/report/learner?filter=Ada+Apprentice', permissions: EDUCATOR });

    expect(await screen.findByText('Ada Apprentice', {}, GRID_WAIT)).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('Ada Apprentice');
    expect(queries.map((q) => q.get('filter'))).toEqual(['Ada Apprentice']);
  });

  describe('one learner by id (?learner=, the insight screen\'s "Reports of …")', () => {
    const ADA = '00000000-0000-4000-8000-000000000011';

    it('asks for exactly that learner, names them, and clears the filter with the keyboard', async () => {
      const { queries } = serveReportList(server, '/api/v1/report/learner', (query) =>
        query.get('learnerId') === ADA
          ? paged([learnerRow({ id: 9, user: 'Ada Apprentice', session: 'Knee AP' })])
          : paged([learnerRow({ id: 9, user: 'Ada Apprentice' }), learnerRow({ id: 8, user: 'Ada Apprentice2' })]),
      );
      const { router, user } = renderRemote({ server, path: `/report/learner?learner=${ADA}`, permissions: EDUCATOR });

      const bar = await screen.findByRole('group', { name: 'Reports of Ada Apprentice' }, GRID_WAIT);
      expect(queries[0]?.get('learnerId')).toBe(ADA);
      expect(queries[0]?.has('filter')).toBe(false);
      expect(rowsOf(await screen.findByRole('grid', {}, GRID_WAIT))).toHaveLength(1);
      expect(screen.queryByText('Ada Apprentice2')).not.toBeInTheDocument();

      const clear = within(bar).getByRole('button', { name: 'Show all learners' });
      clear.focus();
      await user.keyboard('{Enter}');

      await waitFor(() => expect(router.state.location.search).toBe(''));
      expect(await screen.findByText('Ada Apprentice2', {}, GRID_WAIT)).toBeInTheDocument();
      expect(screen.queryByRole('group', { name: /Reports of/ })).not.toBeInTheDocument();
      expect(queries.at(-1)?.has('learnerId')).toBe(false);
    });

    it('searches within the learner and keeps their name when the search finds nothing', async () => {
      const { queries } = serveReportList(server, '/api/v1/report/learner', (query) =>
        query.get('filter') ? paged([]) : paged([learnerRow({ user: 'Ada Apprentice' })]),
      );
      const { user } = renderRemote({ server, path: `/report/learner?learner=${ADA}`, permissions: EDUCATOR });

      await screen.findByRole('group', { name: 'Reports of Ada Apprentice' }, GRID_WAIT);
      await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'skull');
      expect(await screen.findByText('No records found', {}, GRID_WAIT)).toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Reports of Ada Apprentice' })).toBeInTheDocument();
      const last = queries.at(-1);
      expect([last?.get('learnerId'), last?.get('filter')]).toEqual([ADA, 'skull']);
    });

    it('says it is one learner when they have no report it may show (another organisation\'s: an empty list)', async () => {
      serveReportList(server, '/api/v1/report/learner', () => paged([]));
      renderRemote({ server, path: `/report/learner?learner=${ADA}`, permissions: EDUCATOR });

      expect(await screen.findByText('No records found', {}, GRID_WAIT)).toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Reports of one learner' })).toBeInTheDocument();
    });

    it('asks nothing for a learner that is no user id, and offers the way back', async () => {
      const { queries } = serveReportList(server, '/api/v1/report/learner', () => paged([learnerRow()]));
      const { router, user } = renderRemote({ server, path: '/report/learner?learner=Lena', permissions: EDUCATOR });

      expect(await screen.findByRole('alert')).toHaveTextContent('This link does not name a learner.');
      await delay(50);
      expect(queries).toHaveLength(0);
      await user.click(screen.getByRole('button', { name: 'Show all learners' }));
      await waitFor(() => expect(router.state.location.search).toBe(''));
      expect(await screen.findByText('Lena Learner', {}, GRID_WAIT)).toBeInTheDocument();
    });

    it('is in German too, and passes axe', async () => {
      await act(() => i18next.changeLanguage('de'));
      try {
        serveReportList(server, '/api/v1/report/learner', () => paged([learnerRow({ user: 'Ada Apprentice' })]));
        const { container } = renderRemote({ server, path: `/report/learner?learner=${ADA}`, permissions: EDUCATOR });
        const bar = await screen.findByRole('group', { name: 'Berichte von Ada Apprentice' }, GRID_WAIT);
        expect(within(bar).getByRole('button', { name: 'Alle Lernenden anzeigen' })).toBeInTheDocument();
        await screen.findByRole('grid', {}, GRID_WAIT);
        expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();
      } finally {
        await act(() => i18next.changeLanguage('en'));
      }
    }, 30_000);
  });

  it('shows a skeleton while loading, then "No records found"', async () => {
    serveReportList(server, '/api/v1/report/learner', async () => {
      await delay(50);
      return paged([]);
    });
    renderRemote({ server, path: '/report/learner', permissions: EDUCATOR });

    expect(await screen.findByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByText('No records found')).toBeInTheDocument();
    expect(screen.queryByRole('grid')).not.toBeInTheDocument();
  });

  it('shows an error when the list cannot be loaded', async () => {
    serveReportList(server, '/api/v1/report/learner', () => HttpResponse.json({ detail: 'Internal server error.' }, { status: 500 }));
    renderRemote({ server, path: '/report/learner', permissions: EDUCATOR });

    expect(await screen.findByRole('alert')).toHaveTextContent('The data could not be loaded');
  });
});
