import { act, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { progress, serveProgress } from '../../../testing/insight-fixtures';

const server = setupTestServer();
const LEARNER = ['global.view_own_reports'];
const WAIT = { timeout: 5000 };

beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterEach(async () => {
  await act(() => i18next.changeLanguage('en'));
});

describe('your progress', () => {
  it('draws one trend per projection whose points match its table and link to the reports', async () => {
    serveProgress(server);
    const { container } = renderRemote({ server, path: '/report/progress', permissions: LEARNER });

    const table = await screen.findByRole('table', { name: 'Knee AP: marks per session' }, WAIT);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [within(r).getByRole('rowheader').textContent, ...within(r).getAllByRole('cell').map((c) => c.textContent)])).toEqual([
      ['02/03/2026 10:00', '55 %', 'Report of 02/03/2026 10:00'],
      ['09/03/2026 10:00', '62.5 %', 'Report of 09/03/2026 10:00'],
      ['12/03/2026 14:30', '80 %', 'Report of 12/03/2026 14:30'],
    ]);

    const chart = screen.getByRole('group', { name: 'Knee AP: your marks' });
    expect(chart).toHaveAccessibleDescription(
      'Line chart of your mark in 3 sessions of Knee AP, from 55 % on 02/03/2026 to 80 % on 12/03/2026; the table “Knee AP: marks per session” gives every mark.',
    );
    const points = within(chart).getAllByRole('link');
    expect(points.map((p) => [p.getAttribute('aria-label'), p.dataset.value, p.getAttribute('href')])).toEqual([
      ['02/03/2026 10:00: 55 %, open the report', '55 %', '/report/0f8fad5b-d9cb-469f-a165-70867728950e'],
      ['09/03/2026 10:00: 62.5 %, open the report', '62.5 %', '/report/1b4e28ba-2fa1-41d2-883f-0016d3cca427'],
      ['12/03/2026 14:30: 80 %, open the report', '80 %', '/report/6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b'],
    ]);
    // Later marks are drawn higher.
    const heights = [...chart.querySelectorAll('circle')].map((c) => Number(c.getAttribute('cy')));
    expect(heights[0]).toBeGreaterThan(heights[1]!);
    expect(heights[1]).toBeGreaterThan(heights[2]!);

    expect(screen.getByRole('heading', { name: 'Knee lateral', level: 2 })).toBeInTheDocument();
    expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();
  });

  it('opens a report from a point of the chart', async () => {
    // The report screen the point opens (what it shows is the report page's tests' business);
    // served first, as the later progress handler takes precedence over its pattern.
    server.use(http.get('/api/v1/report/:reportId', () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })));
    serveProgress(server);
    const { router, user } = renderRemote({ server, path: '/report/progress', permissions: LEARNER });

    const chart = await screen.findByRole('group', { name: 'Knee AP: your marks' }, WAIT);
    await user.click(within(chart).getByRole('link', { name: '09/03/2026 10:00: 62.5 %, open the report' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/report/1b4e28ba-2fa1-41d2-883f-0016d3cca427'));
  });

  it('says so before anything is marked', async () => {
    serveProgress(server, () => progress({ projections: [] }));
    renderRemote({ server, path: '/report/progress', permissions: LEARNER });

    expect(await screen.findByText(/No marked images yet\./)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows an error when the progress cannot be loaded', async () => {
    serveProgress(server, () => HttpResponse.json({ detail: 'Internal server error.' }, { status: 500 }));
    renderRemote({ server, path: '/report/progress', permissions: LEARNER });

    expect(await screen.findByRole('alert', {}, WAIT)).toHaveTextContent('Your progress could not be loaded.');
  });

  it('in German', async () => {
    await act(() => i18next.changeLanguage('de'));
    serveProgress(server);
    renderRemote({ server, path: '/report/progress', permissions: LEARNER });

    const table = await screen.findByRole('table', { name: 'Knee AP: Bewertungen pro Sitzung' }, WAIT);
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('09.03.2026 10:0062,5 %Bericht vom 09.03.2026 10:00');
    expect(screen.getByRole('heading', { name: 'Ihr Fortschritt', level: 1 })).toBeInTheDocument();
  });
});
