import { act, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { evidence, imageUrl, report, REPORT_UUID, serveReport } from '../../../testing/report-fixtures';

const server = setupTestServer();
const LEARNER = ['global.view_own_reports'];
const EDUCATOR = ['global.view_own_reports', 'global.view_org_reports'];

beforeAll(() => {
  process.env.TZ = 'UTC';
});

describe('a report', () => {
  it('shows its description, summary, details and each image with its readouts', async () => {
    serveReport(
      server,
      report({
        evidence: [
          evidence({ id: 11 }),
          evidence({
            id: 12,
            practiceActivity: 'Hand PA',
            evidenceData: { ...evidence().evidenceData, dose: { dapMGyCm2: 3.5, entranceDoseUGy: 120 } },
          }),
        ],
      }),
    );
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });

    expect(await screen.findByRole('heading', { level: 1, name: 'Knee AP' })).toBeInTheDocument();
    expect(document.title).toBe('Knee AP - Simulation Portal');
    const summary = screen.getAllByRole('definition');
    expect(summary.map((d) => d.textContent)).toEqual(expect.arrayContaining(['Radiography', 'VR', 'Lena Learner', '5/03/2026 14:05pm']));
    const details = screen.getByRole('region', { name: 'Report details' });
    expect(within(details).getByText('Two of three images met the criteria.')).toBeInTheDocument();
    expect(within(details).getByText('67 %')).toBeInTheDocument();

    const first = screen.getByRole('article', { name: 'Image 1: Knee AP' });
    expect(await within(first).findByRole('img', { name: 'X-ray image 1: Knee AP' })).toHaveAttribute('src', imageUrl(11));
    expect(within(first).getByText('65 kV')).toBeInTheDocument();
    expect(within(first).getByText('4.5 mAs')).toBeInTheDocument();
    expect(within(first).getByText('110 cm')).toBeInTheDocument();
    expect(within(first).getByText('12.34 mGy*cm²')).toBeInTheDocument();
    // Readouts by their names and units, not the simulator's keys.
    const readouts = within(first)
      .getAllByRole('term')
      .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(readouts).toEqual(
      expect.arrayContaining([
        'Body area: Knee',
        'Projection: AP',
        'Side: Left',
        'Field width: 18 cm',
        'Deviation index: -0.4',
        'Exposure: On target',
        'Mean pixel value: 1,450',
        // A key of a newer simulator: its name in words.
        'Grid: No',
      ]),
    );
    expect(within(first).queryByText('bodyArea')).not.toBeInTheDocument();

    const second = screen.getByRole('article', { name: 'Image 2: Hand PA' });
    expect(await within(second).findByRole('img', { name: 'X-ray image 2: Hand PA' })).toHaveAttribute('src', imageUrl(12));
    expect(within(second).getByText('120 µGy')).toBeInTheDocument();
    expect(within(second).getByText('Not analysed')).toBeInTheDocument();
  });

  it("roots the breadcrumbs at 'Your reports' for the owner", async () => {
    serveReport(server, report({ isOwner: true }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });

    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Your reports' })).toHaveAttribute('href', '/report');
    expect(within(crumbs).getByText('Knee AP')).toHaveAttribute('aria-current', 'page');
    expect(within(crumbs).queryByText('Learner reports')).not.toBeInTheDocument();
  });

  it("roots the breadcrumbs at 'Learner reports' for someone else's report, under /lti too", async () => {
    serveReport(server, report({ isOwner: false, userName: 'Ada Apprentice' }));
    renderRemote({ server, mountPath: '/lti/report', path: `/lti/report/${REPORT_UUID}`, permissions: EDUCATOR });

    const crumbs = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Learner reports' })).toHaveAttribute('href', '/lti/report/learner');
    expect(within(crumbs).queryByText('Your reports')).not.toBeInTheDocument();
  });

  it('shows page not found for a report that does not exist or may not be seen', async () => {
    serveReport(server, report());
    renderRemote({ server, path: '/report/11111111-2222-4333-8444-555555555555', permissions: LEARNER });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('shows page not found for an id that is not a report id, without asking the API', async () => {
    renderRemote({ server, path: '/report/not-a-uuid', permissions: LEARNER });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('the no-report page', () => {
  it("says the session was not saved and links back to the reports, under /lti too", async () => {
    renderRemote({ server, mountPath: '/lti/report', path: '/lti/report/no-report', permissions: LEARNER });

    expect(await screen.findByRole('heading', { level: 1, name: 'Session not saved' })).toBeInTheDocument();
    expect(screen.getByText(/No report was saved for this session/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your reports' })).toHaveAttribute('href', '/lti/report');
  });
});

describe('a report in German', () => {
  afterEach(async () => {
    await act(() => i18next.changeLanguage('en'));
  });

  it('labels readouts, units and values in German with German numbers', async () => {
    serveReport(server, report({ evidence: [evidence({ id: 11 })] }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    await act(() => i18next.changeLanguage('de'));

    const first = await screen.findByRole('article', { name: 'Bild 1: Knee AP' });
    const readouts = within(first)
      .getAllByRole('term')
      .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);
    expect(readouts).toEqual(
      expect.arrayContaining([
        'Körperregion: Knie',
        'Seite: Links',
        'Feldbreite: 18 cm',
        'Belichtung: Im Zielbereich',
        'Mittlerer Pixelwert: 1.450',
      ]),
    );
  });
});
