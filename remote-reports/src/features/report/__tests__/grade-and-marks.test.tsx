import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from 'jest-axe';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import type { Report } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { evidence, report, REPORT_UUID, serveReport } from '../../../testing/report-fixtures';

const server = setupTestServer();
const LEARNER = ['global.view_own_reports'];
const EDUCATOR = ['global.view_own_reports', 'global.view_org_reports'];

beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterEach(async () => {
  await i18next.changeLanguage('en');
});

const marked = evidence({
  id: 11,
  marks: {
    score: 72.5,
    criteria: [
      { criterion: 'centring', mark: 10, max: 20, reason: 'off_centre', value: 14.2, limit: 10 },
      { criterion: 'collimation', mark: null, max: 15, reason: 'not_assessed', value: null, limit: null },
      { criterion: 'kV', mark: 10, max: 10, reason: 'met', value: 65, limit: 70 },
      { criterion: 'dose', mark: 0, max: 20, reason: 'dose_above_drl', value: 120.5, limit: 115 },
      { criterion: 'exposureIndex', mark: 7.5, max: 15, reason: 'underexposed', value: -2.1, limit: -1.5 },
      { criterion: 'repeats', mark: 5, max: 10, reason: 'repeated', value: 1, limit: 0 },
    ],
  },
});

const pending: Report['grade'] = {
  score: 73,
  reportedScore: 100,
  passMark: 60,
  release: 'pending',
  releasedAt: null,
  canRelease: true,
};

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      [...within(row).getAllByRole('rowheader'), ...within(row).getAllByRole('cell')].map((cell) => cell.textContent),
    );

describe('marks per image', () => {
  it('lists each criterion with its mark and the reason for every point lost', async () => {
    serveReport(server, report({ evidence: [marked], grade: { ...pending, canRelease: false, release: 'not_applicable' } }));
    const { container } = renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });

    const image = await screen.findByRole('article', { name: 'Image 1: Knee AP' });
    const table = within(image).getByRole('table', { name: 'Marks: 72.5 %' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Criterion', 'Mark', 'Reason']);
    expect(rowsOf(table)).toEqual([
      ['Centring', '10 of 20', 'Central ray 14.2 mm off the centre (limit 10 mm)'],
      ['Collimation', 'Not assessed', 'The simulator did not record this for the image.'],
      ['Tube voltage', '10 of 10', 'Full marks'],
      ['Dose against the reference level', '0 of 20', 'Dose-area product 120.5 mGy·cm², above 115 mGy·cm²'],
      ['Exposure index', '7.5 of 15', 'Underexposed: deviation index -2.1 (limit -1.5)'],
      ['Repeats', '5 of 10', 'Attempt 1 after the first at this projection (allowed 0)'],
    ]);
    const grade = screen.getByRole('region', { name: 'Grade' });
    expect(within(grade).getByText('73 %, passed (pass mark 60 %)')).toBeInTheDocument();
    expect(within(grade).queryByRole('button')).not.toBeInTheDocument();
    expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();
  });

  it('in German too', async () => {
    await i18next.changeLanguage('de');
    serveReport(server, report({ evidence: [marked], grade: pending }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    const table = await screen.findByRole('table', { name: 'Bewertung: 72,5 %' });
    expect(rowsOf(table)[0]).toEqual(['Zentrierung', '10 von 20', 'Zentralstrahl 14,2 mm neben der Mitte (Grenze 10 mm)']);
    expect(screen.getByText('Wartet auf die Prüfung durch eine Lehrkraft')).toBeInTheDocument();
  });

  it('an image without marks shows no table; a session without marked images says no grade is sent', async () => {
    serveReport(server, report({ grade: { ...pending, score: null, passMark: null, release: 'not_applicable', canRelease: false } }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    const image = await screen.findByRole('article', { name: 'Image 1: Knee AP' });
    expect(within(image).queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('Not marked: no image of this session was marked, so no grade is sent.')).toBeInTheDocument();
  });
});

describe('an image the API has not marked yet', () => {
  const waiting = evidence({ id: 11, marks: null, markingPending: true });
  const noGrade: Report['grade'] = { ...pending, score: null, release: 'not_applicable', canRelease: false };

  it('says "Marking…" instead of marks, and shows them once the report is fetched again', async () => {
    serveReport(server, report({ evidence: [waiting], grade: noGrade }));
    const { container } = renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    const image = await screen.findByRole('article', { name: 'Image 1: Knee AP' });
    expect(within(image).getByRole('status')).toHaveTextContent('Marking…');
    expect(within(image).queryByRole('table')).not.toBeInTheDocument();
    expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();

    // The API has marked it by the next fetch: the report refreshes itself while marking runs.
    server.use(
      http.get('/api/v1/report/:reportId', () =>
        HttpResponse.json(report({ evidence: [marked], grade: { ...noGrade, score: 73 } })),
      ),
    );
    expect(await within(image).findByRole('table', { name: 'Marks: 72.5 %' }, { timeout: 5000 })).toBeInTheDocument();
    expect(within(image).queryByText('Marking…')).not.toBeInTheDocument();
  });

  it('in German too', async () => {
    await i18next.changeLanguage('de');
    serveReport(server, report({ evidence: [waiting], grade: noGrade }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    const image = await screen.findByRole('article', { name: 'Bild 1: Knee AP' });
    expect(within(image).getByRole('status')).toHaveTextContent('Wird bewertet…');
  });
});

describe('grade release', () => {
  it('an educator releases a pending grade by keyboard; the report then says it was sent', async () => {
    serveReport(server, report({ isOwner: false, evidence: [marked], grade: pending }));
    const posts: string[] = [];
    server.use(
      http.post<{ reportId: string }>('/api/v1/report/:reportId/release-grade', ({ params }) => {
        posts.push(params.reportId);
        return HttpResponse.json(
          report({
            isOwner: false,
            evidence: [marked],
            grade: { ...pending, release: 'released', releasedAt: '2026-03-06T09:30:00.000Z', canRelease: false },
          }),
        );
      }),
    );
    const user = userEvent.setup();
    const { container } = renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: EDUCATOR });
    const grade = await screen.findByRole('region', { name: 'Grade' });
    expect(within(grade).getByText("Waiting for an educator's review")).toBeInTheDocument();
    expect(await axe(container, { rules: { region: { enabled: false } } })).toHaveNoViolations();

    const button = within(grade).getByRole('button', { name: 'Release grade' });
    button.focus();
    await user.keyboard('{Enter}');

    expect(await within(grade).findByRole('status')).toHaveTextContent('The grade was released to the learning platform.');
    expect(posts).toEqual([REPORT_UUID]);
    expect(within(grade).getByText('Grade sent on 6/03/2026 9:30am')).toBeInTheDocument();
    expect(within(grade).queryByRole('button', { name: 'Release grade' })).not.toBeInTheDocument();
  });

  it('a refused release says so and keeps the button', async () => {
    serveReport(server, report({ isOwner: false, grade: pending }));
    server.use(
      http.post('/api/v1/report/:reportId/release-grade', () =>
        HttpResponse.json({ detail: 'This report has no grade waiting for release.' }, { status: 409 }),
      ),
    );
    const user = userEvent.setup();
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: EDUCATOR });
    await user.click(await screen.findByRole('button', { name: 'Release grade' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The grade could not be released.');
    expect(screen.getByRole('button', { name: 'Release grade' })).toBeEnabled();
  });
});
