import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from 'jest-axe';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import type { ReportFeedbackBody, Report } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { evidence, report, REPORT_UUID, serveReport } from '../../../testing/report-fixtures';

const server = setupTestServer();
const LEARNER = ['global.view_own_reports'];
const EDUCATOR = ['global.view_own_reports', 'global.view_org_reports'];
const noRegion = { rules: { region: { enabled: false } } };

beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterEach(async () => {
  await i18next.changeLanguage('en');
});

const marks = {
  score: 75,
  criteria: [
    { criterion: 'centring' as const, mark: 10, max: 20, reason: 'off_centre' as const, value: 14.2, limit: 10 },
    { criterion: 'dose' as const, mark: 20, max: 20, reason: 'met' as const, value: 100, limit: 115 },
  ],
};
const byEducator = { authorName: 'Erik Educator', updatedAt: '2026-03-06T09:30:00.000Z' };

/** The learner's report as the educator's save answers it: centring 18 of 20, with comments. */
const reviewed = (overrides: Partial<Report> = {}) =>
  report({
    isOwner: true,
    feedback: { comment: 'Good session overall.', ...byEducator },
    evidence: [
      evidence({
        marks: { score: 95, criteria: [{ ...marks.criteria[0]!, mark: 18 }, marks.criteria[1]!] },
        feedback: { comment: 'Centre on the joint space.', ...byEducator },
        overrides: [
          { criterion: 'centring', originalMark: 10, mark: 18, reason: 'Within 1 cm on review.', ...byEducator },
        ],
      }),
    ],
    ...overrides,
  });

describe('educator feedback on the report page', () => {
  it('an educator comments an image by keyboard; the answer replaces the report', async () => {
    serveReport(server, report({ isOwner: false, canGiveFeedback: true, evidence: [evidence({ marks })] }));
    const puts: unknown[] = [];
    server.use(
      http.put('/api/v1/report/:reportId/evidence/:evidenceId/feedback', async ({ request, params }) => {
        puts.push({ evidenceId: params.evidenceId, body: await request.json() });
        return HttpResponse.json(reviewed({ isOwner: false, canGiveFeedback: true }));
      }),
    );
    const user = userEvent.setup();
    const { container } = renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: EDUCATOR });
    const image = await screen.findByRole('article', { name: 'Image 1: Knee AP' });
    expect(screen.getByRole('region', { name: "Educator's feedback" })).toBeInTheDocument();
    expect(await axe(container, noRegion)).toHaveNoViolations();

    const field = within(image).getByRole('textbox', { name: 'Comment on this image' });
    await user.click(field);
    await user.keyboard('Centre on the joint space.');
    await user.tab();
    await user.keyboard('{Enter}');

    expect(await within(image).findByText('Saved. The learner is notified.')).toBeInTheDocument();
    expect(puts).toEqual([{ evidenceId: '11', body: { comment: 'Centre on the joint space.' } }]);
    // The answer's override is shown: the original struck through, the reason beside it.
    const table = within(image).getByRole('table', { name: 'Marks: 95 %' });
    const row = within(table).getByRole('row', { name: /Centring/ });
    expect(row.querySelector('del')).toHaveTextContent('Original mark: 10 of 20');
    expect(row.querySelector('ins')).toHaveTextContent('18 of 20');
    expect(within(row).getByText('Overridden by Erik Educator: Within 1 cm on review.')).toBeInTheDocument();
  });

  it('overrides a mark: checks the range and reason itself, shows the server’s errors under the fields', async () => {
    serveReport(server, report({ isOwner: false, canGiveFeedback: true, evidence: [evidence({ marks })] }));
    const bodies: ReportFeedbackBody[] = [];
    server.use(
      http.put('/api/v1/report/:reportId/feedback', async ({ request }) => {
        const body = (await request.json()) as ReportFeedbackBody;
        bodies.push(body);
        if (body.overrides?.[0]?.reason === 'refused')
          return HttpResponse.json({ 'overrides.0.reason': ['Give a reason for the override.'] }, { status: 400 });
        return HttpResponse.json(reviewed({ isOwner: false, canGiveFeedback: true }));
      }),
    );
    const user = userEvent.setup();
    const { container } = renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: EDUCATOR });
    const open = await screen.findByRole('button', { name: 'Override mark: Centring' });
    open.focus();
    await user.keyboard('{Enter}');
    expect(open).toHaveAttribute('aria-expanded', 'true');
    const form = screen.getByRole('form', { name: 'Override the mark for Centring' });
    const mark = within(form).getByRole('textbox', { name: /New mark \(0 to 20\)/ });
    expect(mark).toHaveFocus();
    await user.clear(mark);
    await user.keyboard('25');
    await user.click(within(form).getByRole('button', { name: 'Save override' }));
    expect(mark).toHaveAccessibleDescription('Enter a mark from 0 to 20.');
    expect(within(form).getByRole('textbox', { name: /Reason for the override/ })).toHaveAccessibleDescription(
      'This field is required.',
    );
    expect(bodies).toEqual([]);
    expect(await axe(container, noRegion)).toHaveNoViolations();

    await user.clear(mark);
    await user.keyboard('18');
    await user.type(within(form).getByRole('textbox', { name: /Reason for the override/ }), 'refused');
    await user.click(within(form).getByRole('button', { name: 'Save override' }));
    expect(await within(form).findByText('Give a reason for the override.')).toBeInTheDocument();

    const reason = within(form).getByRole('textbox', { name: /Reason for the override/ });
    await user.clear(reason);
    await user.type(reason, 'Within 1 cm on review.');
    await user.click(within(form).getByRole('button', { name: 'Save override' }));
    expect(await screen.findByText('Overridden by Erik Educator: Within 1 cm on review.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Override the mark for Centring' })).not.toBeInTheDocument();
    expect(bodies.at(-1)).toEqual({
      overrides: [{ evidenceId: 11, criterion: 'centring', mark: 18, reason: 'Within 1 cm on review.' }],
    });
  });

  it('the learner reads the feedback beside their analysis, with no forms', async () => {
    serveReport(server, reviewed());
    const { container } = renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    const image = await screen.findByRole('article', { name: 'Image 1: Knee AP' });
    const imageFeedback = within(image).getByRole('region', { name: "Educator's feedback on this image" });
    expect(within(imageFeedback).getByText('Centre on the joint space.')).toBeInTheDocument();
    expect(within(imageFeedback).getByText('Erik Educator, 6/03/2026 9:30am')).toBeInTheDocument();
    const reportFeedback = screen.getByRole('region', { name: "Educator's feedback" });
    expect(within(reportFeedback).getByText('Good session overall.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /Comment/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Override mark/ })).not.toBeInTheDocument();
    expect(within(image).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Criterion', 'Mark', 'Reason']);
    expect(await axe(container, noRegion)).toHaveNoViolations();
  });

  it('in German too', async () => {
    await i18next.changeLanguage('de');
    serveReport(server, reviewed({ isOwner: false, canGiveFeedback: true }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: EDUCATOR });
    expect(await screen.findByRole('textbox', { name: 'Kommentar zum gesamten Bericht' })).toHaveValue('Good session overall.');
    expect(screen.getByRole('textbox', { name: 'Kommentar zu diesem Bild' })).toHaveValue('Centre on the joint space.');
    expect(screen.getByRole('button', { name: 'Bewertung überschreiben: Zentrierung' })).toBeInTheDocument();
    expect(screen.getByText('Überschrieben von Erik Educator: Within 1 cm on review.')).toBeInTheDocument();
  });

  it('a learner without feedback sees no feedback sections', async () => {
    serveReport(server, report({ evidence: [evidence({ marks })] }));
    renderRemote({ server, path: `/report/${REPORT_UUID}`, permissions: LEARNER });
    await screen.findByRole('article', { name: 'Image 1: Knee AP' });
    expect(screen.queryByRole('region', { name: /Educator's feedback/ })).not.toBeInTheDocument();
  });
});
