import { act, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { delay, http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { emptyInsight, fieldErrors, insight, serveInsight, serveOrganisations } from '../../../testing/insight-fixtures';
import { learnerRow, paged, serveReportList } from '../../../testing/report-fixtures';

const server = setupTestServer();
const EDUCATOR = ['global.view_own_reports', 'global.view_org_reports'];
const SYSADMIN = [...EDUCATOR, 'global.view_all_reports', 'global.view_org'];
// The sections are a lazy chunk; on a busy machine it takes longer than the default second.
const WAIT = { timeout: 5000 };
// axe over four charts and tables, and the typing of five filters, take several seconds alone;
// beside the other suites on a busy machine, more than the preset's 20.
const SLOW = 45_000;

beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterEach(async () => {
  await act(() => i18next.changeLanguage('en'));
});

const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
/** What a chart draws: for every category, each series' value as written on its bar. */
function chartValues(chart: HTMLElement): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const group of chart.querySelectorAll<SVGGElement>('g[data-category]')) {
    const category = group.dataset.category ?? '';
    out[category] = Object.fromEntries(
      [...group.querySelectorAll<SVGGElement>('g[data-series]')].map((bar) => [bar.dataset.series, bar.dataset.value]),
    );
  }
  return out;
}

describe('cohort insight', () => {
  it('shows each section as a chart and a table with the same numbers, and passes axe', async () => {
    const { requests } = serveInsight(server);
    const { container } = renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });

    expect(await screen.findByRole('heading', { name: 'Cohort insight', level: 1 })).toBeInTheDocument();
    const weeksTable = await screen.findByRole('table', { name: 'Weeks: sessions and active learners' }, WAIT);
    expect(requests[0]).toMatchObject({ organisationId: 1 });
    expect([...requests[0]!.query.keys()]).toEqual([]);

    // Totals.
    const totals = screen.getByRole('region', { name: 'Summary' });
    expect(within(totals).getByText('Sessions').nextSibling).toHaveTextContent('7');
    expect(within(totals).getByText('Mean mark').nextSibling).toHaveTextContent('71.3 %');
    expect(screen.getByText('02/03/2026 to 15/03/2026')).toBeInTheDocument();

    // Weeks: table rows and bars agree.
    expect(bodyRows(weeksTable).map((r) => [within(r).getByRole('rowheader').textContent, ...cells(r)])).toEqual([
      ['02/03/2026', '5', '3'],
      ['09/03/2026', '2', '1'],
    ]);
    const weeksChart = screen.getByRole('img', { name: 'Sessions and active learners per week' });
    expect(weeksChart).toHaveAccessibleDescription(/2 weeks; the table “Weeks: sessions and active learners” gives the same numbers/);
    expect(chartValues(weeksChart)).toEqual({
      'Week of 02/03/2026': { Sessions: '5', 'Active learners': '3' },
      'Week of 09/03/2026': { Sessions: '2', 'Active learners': '1' },
    });

    // Projections.
    const projections = screen.getByRole('table', { name: 'Projections: images, repeats, rejects, dose and marks' });
    expect(bodyRows(projections).map(cells)).toEqual([
      ['14', '25 %', '12.5 %', '0.84 × DRL', '1.12 × DRL', '68.5 %'],
      ['10', '0 %', '–', '–', '–', 'not marked'],
    ]);
    expect(chartValues(screen.getByRole('img', { name: 'Repeat rate, reject rate and mean mark per projection' }))).toEqual({
      'Knee AP': { 'Repeat rate': '25 %', 'Reject rate': '12.5 %', 'Mean mark': '68.5 %' },
      'Knee lateral': { 'Repeat rate': '0 %', 'Reject rate': '–', 'Mean mark': '–' },
    });
    const dose = screen.getByRole('img', { name: 'Dose against the diagnostic reference level per projection' });
    expect(chartValues(dose)).toEqual({
      'Knee AP': { 'Median dose ÷ DRL': '0.84 × DRL', '75th percentile dose ÷ DRL': '1.12 × DRL' },
      'Knee lateral': { 'Median dose ÷ DRL': '–', '75th percentile dose ÷ DRL': '–' },
    });
    expect(dose.querySelector('[data-reference="1"]')).not.toBeNull();

    // Learners, with a link to each one's reports.
    const learners = screen.getByRole('table', { name: 'Learners: sessions, marks and activity' });
    expect(bodyRows(learners).map(cells)).toEqual([
      ['4', '75.5 %', '+12.5 points', '12/03/2026', 'Reports of Ada Apprentice'],
      ['2', '61 %', '-3 points', '04/03/2026', 'Reports of Ben Beginner'],
      ['1', 'not marked', '–', '–', 'Reports of Cleo Cadet'],
    ]);
    expect(chartValues(screen.getByRole('img', { name: 'Mean mark per learner' }))).toEqual({
      'Ada Apprentice': { 'Mean mark': '75.5 %' },
      'Ben Beginner': { 'Mean mark': '61 %' },
      'Cleo Cadet': { 'Mean mark': 'not marked' },
    });
    expect(within(learners).getByRole('link', { name: 'Reports of Ada Apprentice' })).toHaveAttribute(
      'href',
      '/report/learner?learner=00000000-0000-4000-8000-000000000011',
    );

    expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();
  }, SLOW);

  it('opens a learner\'s reports by their id, not a search for their name', async () => {
    serveInsight(server);
    const { queries } = serveReportList(server, '/api/v1/report/learner', (query) =>
      paged(
        query.get('learnerId') === '00000000-0000-4000-8000-000000000011'
          ? [learnerRow({ user: 'Ada Apprentice' })]
          : [learnerRow({ user: 'Ada Apprentice' }), learnerRow({ id: 2, user: 'Ada Apprentice2' })],
      ),
    );
    const { router, user } = renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });

    await user.click(await screen.findByRole('link', { name: 'Reports of Ada Apprentice' }, WAIT));

    await waitFor(() => expect(router.state.location.pathname).toBe('/report/learner'));
    expect(await screen.findByRole('group', { name: 'Reports of Ada Apprentice' }, WAIT)).toBeInTheDocument();
    expect(queries.map((q) => [q.get('learnerId'), q.get('filter')])).toEqual([['00000000-0000-4000-8000-000000000011', null]]);
    await screen.findByRole('grid', {}, WAIT);
    expect(screen.queryByText('Ada Apprentice2')).not.toBeInTheDocument();
  }, SLOW);

  it('keeps the filters in the URL: apply pushes them, back and forward restore them', async () => {
    const { requests } = serveInsight(server);
    const { router, user } = renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });
    await screen.findByRole('table', { name: 'Weeks: sessions and active learners' }, WAIT);

    await user.type(screen.getByLabelText('From'), '2026-01-05');
    await user.type(screen.getByLabelText('To'), '2026-03-31');
    await user.selectOptions(screen.getByLabelText('Simulation'), 'Fluoroscopy');
    await user.type(screen.getByLabelText('Configuration'), 'Knee');
    await user.selectOptions(screen.getByLabelText('Learner'), 'Ben Beginner');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() =>
      expect(router.state.location.search).toBe('?from=2026-01-05&to=2026-03-31&productId=2&configuration=Knee&learner=00000000-0000-4000-8000-000000000012'),
    );
    await waitFor(() => expect(requests.at(-1)?.query.toString()).toBe('from=2026-01-05&to=2026-03-31&productId=2&configuration=Knee&learner=00000000-0000-4000-8000-000000000012'));

    await act(() => router.navigate(-1));
    await waitFor(() => expect(screen.getByLabelText('From')).toHaveValue(''));
    expect(screen.getByLabelText('Configuration')).toHaveValue('');
    expect(router.state.location.search).toBe('');

    await act(() => router.navigate(1));
    await waitFor(() => expect(screen.getByLabelText('From')).toHaveValue('2026-01-05'));
    expect(screen.getByLabelText('Simulation')).toHaveValue('2');
    expect(screen.getByLabelText('Learner')).toHaveValue('00000000-0000-4000-8000-000000000012');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  }, SLOW);

  it('says under each field what is wrong with a value in the URL, and asks the API nothing', async () => {
    const { requests } = serveInsight(server);
    renderRemote({
      server,
      path: `/report/insight?from=2026-02-30&to=soon&productId=abc&learner=0&configuration=${'x'.repeat(256)}`,
      permissions: EDUCATOR,
    });

    expect(await screen.findByLabelText('From')).toHaveAccessibleDescription(/Enter a date as yyyy-mm-dd\./);
    expect(screen.getByLabelText('To')).toHaveAccessibleDescription('Enter a date as yyyy-mm-dd.');
    expect(screen.getByLabelText('Simulation')).toHaveAccessibleDescription('This is not a valid choice.');
    expect(screen.getByLabelText('Learner')).toHaveAccessibleDescription('This is not a valid choice.');
    expect(screen.getByLabelText('Configuration')).toHaveAccessibleDescription(/Use at most 255 characters\./);
    expect(screen.getByLabelText('From')).toHaveAttribute('aria-invalid', 'true');
    await delay(50);
    expect(requests).toHaveLength(0);
  });

  it('refuses an end before the start, and a range of more than 366 days', async () => {
    const { requests } = serveInsight(server);
    const { user } = renderRemote({ server, path: '/report/insight?from=2026-03-10&to=2026-03-01', permissions: EDUCATOR });
    expect(await screen.findByLabelText('To')).toHaveAccessibleDescription('The end date is before the start date.');

    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2025-01-01');
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-01-02');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(screen.getByLabelText('To')).toHaveAccessibleDescription('Choose at most 366 days.'));
    expect(requests).toHaveLength(0);

    // 366 days exactly, both ends counted, is allowed.
    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(requests.at(-1)?.query.toString()).toBe('from=2025-01-01&to=2026-01-01'));
  }, SLOW);

  it("shows the API's refusal of a field under that field", async () => {
    serveInsight(server, () => fieldErrors({ learner: ['This learner is not in the organisation.'] }));
    renderRemote({ server, path: '/report/insight?learner=00000000-0000-4000-8000-000000000099', permissions: EDUCATOR });

    await waitFor(() => expect(screen.getByLabelText('Learner')).toHaveAccessibleDescription('This learner is not in the organisation.'));
    expect(screen.getByLabelText('Learner')).toHaveValue('00000000-0000-4000-8000-000000000099');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says so when the range has no sessions, without charts or export', async () => {
    serveInsight(server, () => emptyInsight());
    renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });

    expect(await screen.findByText('No sessions were recorded from 02/03/2026 to 15/03/2026 with these filters.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  it('shows an error when the insight cannot be loaded', async () => {
    serveInsight(server, () => HttpResponse.json({ detail: 'Internal server error.' }, { status: 500 }));
    renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });

    expect(await screen.findByRole('alert', {}, WAIT)).toHaveTextContent('The insight could not be loaded.');
  });

  it('formats numbers and dates in German', async () => {
    await act(() => i18next.changeLanguage('de'));
    serveInsight(server);
    renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });

    const table = await screen.findByRole('table', { name: 'Projektionen: Aufnahmen, Wiederholungen, Verwerfungen, Dosis und Bewertungen' }, WAIT);
    expect(cells(bodyRows(table)[0]!)).toEqual(['14', '25 %', '12,5 %', '0,84 × DRW', '1,12 × DRW', '68,5 %']);
    expect(screen.getByText('02.03.2026 bis 15.03.2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'CSV exportieren' })).toBeInTheDocument();
    expect(screen.getByLabelText('Von')).toBeInTheDocument();
  });

  it('exports the CSV with the same filters and the bearer token', async () => {
    const { requests } = serveInsight(server);
    const exports: { search: string; authorization: string | null }[] = [];
    server.use(
      http.get('/api/v1/organisation/:id/insight/export.csv', ({ request }) => {
        exports.push({ search: new URL(request.url).search, authorization: request.headers.get('Authorization') });
        return new HttpResponse('\uFEFFlearner\nAda\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      }),
    );
    const createObjectURL = jest.fn((blob: Blob) => (blob.size > 0 ? 'blob:insight' : ''));
    const revokeObjectURL = jest.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicks: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    try {
      const { user } = renderRemote({ server, path: '/report/insight?from=2026-03-02&configuration=Knee', permissions: EDUCATOR });
      await user.click(await screen.findByRole('button', { name: 'Export CSV' }, WAIT));

      await waitFor(() => expect(clicks).toHaveLength(1));
      expect(exports).toEqual([{ search: '?from=2026-03-02&configuration=Knee', authorization: expect.stringMatching(/^Bearer .+/) }]);
      expect(requests.at(-1)?.query.toString()).toBe('from=2026-03-02&configuration=Knee');
      expect(clicks[0]).toHaveAttribute('download', 'insight-1-2026-03-02-2026-03-15.csv');
      expect(clicks[0]).toHaveAttribute('href', 'blob:insight');
    } finally {
      click.mockRestore();
    }
  });

  it('says so when the export fails', async () => {
    serveInsight(server);
    server.use(http.get('/api/v1/organisation/:id/insight/export.csv', () => new HttpResponse(null, { status: 500 })));
    const { user } = renderRemote({ server, path: '/report/insight', permissions: EDUCATOR });
    await user.click(await screen.findByRole('button', { name: 'Export CSV' }, WAIT));
    expect(await screen.findByRole('alert')).toHaveTextContent('The export could not be downloaded. Try again.');
  });

  describe('the organisation picker of a global administrator', () => {
    const SYSADMIN_ACCOUNT = { organisationId: null, organisationName: null };
    // 250 organisations: "Organisation 001" … "Organisation 250", and one by another name far down.
    const many = () => [
      ...Array.from({ length: 250 }, (_, i) => ({ id: i + 1, name: `Organisation ${String(i + 1).padStart(3, '0')}`, city: 'Berlin' })),
      { id: 777, name: 'Zeta Clinic', city: 'Zürich' },
    ];

    it('finds an organisation beyond the first page by typing, and chooses it with the keyboard', async () => {
      const { requests } = serveInsight(server, (_query, organisationId) => insight({ organisationId }));
      const { queries } = serveOrganisations(server, many());
      const { router, user } = renderRemote({ server, path: '/report/insight', permissions: SYSADMIN, account: SYSADMIN_ACCOUNT });

      expect(await screen.findByText('Choose the organisation whose learners you want to see.')).toBeInTheDocument();
      const box = screen.getByRole('combobox', { name: 'Organisation' });
      expect(box).toHaveAttribute('aria-expanded', 'false');
      expect(queries).toHaveLength(0);

      await user.click(box);
      await user.keyboard('Organisation 2');
      // Debounced: one search for what was typed, not one per key.
      const list = await screen.findByRole('listbox', { name: 'Organisation' }, WAIT);
      await waitFor(() => expect(within(list).getByRole('option', { name: /Organisation 200/ })).toBeInTheDocument());
      expect(queries.map((q) => q.get('filter')).filter(Boolean)).toEqual(['Organisation 2']);
      expect(queries.at(-1)?.get('pageSize')).toBe('20');
      // 51 match (200–250); 20 are listed, and the rest is a matter of typing more.
      expect(within(list).getAllByRole('option')).toHaveLength(20);
      expect(await screen.findByText('More organisations match: type more to narrow the list.')).toBeInTheDocument();

      await user.clear(box);
      await user.keyboard('zeta');
      const zeta = await within(list).findByRole('option', { name: /Zeta Clinic/ }, WAIT);
      expect(within(list).getAllByRole('option')).toHaveLength(1);
      expect(await screen.findByText('1 organisation found.')).toBeInTheDocument();

      await user.keyboard('{ArrowDown}');
      expect(zeta).toHaveAttribute('aria-selected', 'true');
      expect(box).toHaveAttribute('aria-activedescendant', zeta.id);
      await user.keyboard('{Enter}');
      expect(box).toHaveValue('Zeta Clinic');
      expect(box).toHaveAttribute('aria-expanded', 'false');
      expect(requests).toHaveLength(0);

      await user.click(screen.getByRole('button', { name: 'Apply filters' }));
      await screen.findByRole('table', { name: 'Weeks: sessions and active learners' }, WAIT);
      expect(router.state.location.search).toBe('?organisation=777');
      expect(requests.map((r) => r.organisationId)).toEqual([777]);
      // The form is rebuilt from the URL: the box names the organisation the URL holds by id.
      await waitFor(() => expect(screen.getByRole('combobox', { name: 'Organisation' })).toHaveValue('Zeta Clinic'));
    }, SLOW);

    it('closes on Escape, then puts the chosen name back; arrows wrap; Enter without an option submits', async () => {
      serveInsight(server, (_query, organisationId) => insight({ organisationId }));
      serveOrganisations(server, many());
      const { router, user } = renderRemote({
        server,
        path: '/report/insight?organisation=250',
        permissions: SYSADMIN,
        account: SYSADMIN_ACCOUNT,
      });

      const box = await screen.findByRole('combobox', { name: 'Organisation' });
      await waitFor(() => expect(box).toHaveValue('Organisation 250'));

      await user.click(box);
      await user.clear(box);
      await user.keyboard('Organisation 00');
      const list = await screen.findByRole('listbox', { name: 'Organisation' }, WAIT);
      await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(9));
      await user.keyboard('{ArrowUp}');
      expect(within(list).getByRole('option', { name: /Organisation 009/ })).toHaveAttribute('aria-selected', 'true');
      await user.keyboard('{ArrowDown}');
      expect(within(list).getByRole('option', { name: /Organisation 001/ })).toHaveAttribute('aria-selected', 'true');

      await user.keyboard('{Escape}');
      expect(box).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
      expect(box).toHaveValue('Organisation 00');
      await user.keyboard('{Escape}');
      expect(box).toHaveValue('Organisation 250');

      // Enter with the list closed submits the form, with the organisation still chosen.
      await user.keyboard('{Enter}');
      await screen.findByRole('table', { name: 'Weeks: sessions and active learners' }, WAIT);
      expect(router.state.location.search).toBe('?organisation=250');
    }, SLOW);

    it('says when nothing matches, is in German, and passes axe with the list open', async () => {
      await act(() => i18next.changeLanguage('de'));
      serveInsight(server, (_query, organisationId) => insight({ organisationId }));
      serveOrganisations(server, many());
      const { container, user } = renderRemote({ server, path: '/report/insight', permissions: SYSADMIN, account: SYSADMIN_ACCOUNT });

      const box = await screen.findByRole('combobox', { name: 'Organisation' });
      expect(box).toHaveAttribute('placeholder', 'Tippen, um Organisationen zu suchen');
      await user.click(box);
      await user.keyboard('Zü');
      const list = await screen.findByRole('listbox', { name: 'Organisation' }, WAIT);
      await within(list).findByRole('option', { name: /Zeta Clinic/ }, WAIT);
      expect(await screen.findByText('1 Organisation gefunden.')).toBeInTheDocument();
      expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();

      await user.keyboard('xyz');
      expect(await screen.findByText('Keine Organisation passt.', {}, WAIT)).toBeInTheDocument();
      expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    }, SLOW);
  });

  it('is not there for a learner', async () => {
    serveInsight(server);
    renderRemote({ server, path: '/report/insight', permissions: ['global.view_own_reports'] });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
