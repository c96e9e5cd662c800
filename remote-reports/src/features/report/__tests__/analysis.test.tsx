import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { evidence, report, REPORT_UUID, serveReport } from '../../../testing/report-fixtures';

const server = setupTestServer();
const LEARNER = ['global.view_own_reports'];
const EDUCATOR = ['global.view_own_reports', 'global.view_org_reports'];
const REPORT_PATH = `/report/${REPORT_UUID}`;

async function openImage(name = 'Image 1: Knee AP') {
  return screen.findByRole('article', { name });
}

describe('analysing an image', () => {
  it('offers "Analyse" to the owner of a not analysed image, with every status but "not analysed"', async () => {
    const user = userEvent.setup();
    serveReport(server, report());
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    const image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));

    const status = within(image).getByRole('combobox', { name: /Analysis status/ });
    await waitFor(() => expect(within(status).getAllByRole('option')).toHaveLength(3));
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['Select…', 'Accepted', 'Rejected']);
    expect(status).toHaveFocus();
    expect(within(image).getByRole('textbox', { name: /Reason/ })).toBeInTheDocument();
    expect(within(image).getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(within(image).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('never shows the form or its buttons to someone who does not own the report', async () => {
    serveReport(
      server,
      report({ isOwner: false, evidence: [evidence(), evidence({ id: 12, practiceActivity: 'Hand PA', analysisStatus: 22002, analysis: 'Well centred.' })] }),
    );
    renderRemote({ server, path: REPORT_PATH, permissions: EDUCATOR });

    const first = await openImage();
    expect(within(first).queryByRole('button')).not.toBeInTheDocument();
    const second = screen.getByRole('article', { name: 'Image 2: Hand PA' });
    expect(within(second).getByText('Accepted')).toBeInTheDocument();
    expect(within(second).getByText('Well centred.')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
  });

  it('requires a status and a reason', async () => {
    const user = userEvent.setup();
    const { puts } = serveReport(server, report());
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    const image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.click(within(image).getByRole('button', { name: 'Save' }));

    expect(within(image).getByRole('combobox', { name: /Analysis status/ })).toHaveAccessibleDescription('This field is required.');
    expect(within(image).getByRole('textbox', { name: /Reason/ })).toHaveAccessibleDescription(
      '0 of 4000 characters This field is required.',
    );
    expect(puts).toHaveLength(0);
  });

  it('limits the reason to 4000 characters and counts them', async () => {
    const user = userEvent.setup();
    const { puts } = serveReport(server, report());
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    const image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.selectOptions(within(image).getByRole('combobox', { name: /Analysis status/ }), 'Rejected');
    const reason = within(image).getByRole('textbox', { name: /Reason/ });
    await user.click(reason);
    await user.paste('x'.repeat(4001));
    await user.click(within(image).getByRole('button', { name: 'Save' }));

    expect(within(image).getByText('4001 of 4000 characters')).toBeInTheDocument();
    expect(within(image).getByText('The reason may be at most 4000 characters long.')).toBeInTheDocument();
    expect(puts).toHaveLength(0);

    await user.type(reason, '{Backspace}');
    expect(within(image).getByText('4000 of 4000 characters')).toBeInTheDocument();
    expect(within(image).queryByText('The reason may be at most 4000 characters long.')).not.toBeInTheDocument();
  });

  it('saves through the analysis route with a PUT and returns to the report, which shows the result', async () => {
    const user = userEvent.setup();
    const { puts } = serveReport(server, report());
    const { router } = renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });
    const visited: string[] = [];
    router.subscribe((state) => visited.push(`${state.historyAction} ${state.location.pathname}`));

    let image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.selectOptions(within(image).getByRole('combobox', { name: /Analysis status/ }), 'Rejected');
    await user.type(within(image).getByRole('textbox', { name: /Reason/ }), 'Knee rotated.');
    await user.click(within(image).getByRole('button', { name: 'Save' }));

    // The form posts to the action route, which saves and replaces itself with the report:
    // history keeps one entry for the report, as after a POST-redirect-GET.
    await waitFor(() => expect(visited.at(-1)).toBe(`REPLACE ${REPORT_PATH}`));
    expect(visited[0]).toBe(`REPLACE ${REPORT_PATH}/evidence/11/analysis`);
    expect(visited.filter((v) => !v.startsWith('REPLACE'))).toEqual([]);
    expect(puts).toEqual([{ evidenceId: 11, body: { analysisStatus: 22003, analysis: 'Knee rotated.' } }]);

    image = await openImage();
    expect(await within(image).findByText('Rejected')).toBeInTheDocument();
    expect(within(image).getByText('Knee rotated.')).toBeInTheDocument();
    expect(within(image).queryByRole('combobox')).not.toBeInTheDocument();

    const edit = within(image).getByRole('button', { name: 'Edit' });
    await waitFor(() => expect(edit).toHaveFocus());
    await user.click(edit);
    expect(within(image).getByRole('combobox', { name: /Analysis status/ })).toHaveValue('22003');
    expect(within(image).getByRole('textbox', { name: /Reason/ })).toHaveValue('Knee rotated.');
  });

  it('cancels without saving', async () => {
    const user = userEvent.setup();
    const { puts } = serveReport(server, report());
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    const image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.type(within(image).getByRole('textbox', { name: /Reason/ }), 'Half a thought');
    await user.click(within(image).getByRole('button', { name: 'Cancel' }));

    expect(within(image).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(image).getByRole('button', { name: 'Analyse' })).toBeInTheDocument();
    expect(within(image).getByText('Not analysed')).toBeInTheDocument();
    expect(puts).toHaveLength(0);
  });

  it("comes back from the route with the values and the server's field errors under the fields", async () => {
    const user = userEvent.setup();
    serveReport(server, report(), {
      analysisErrors: { analysis: ['Ensure this field has no more than 4000 characters.'], analysisStatus: ['Select a valid choice.'] },
    });
    const { router } = renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    let image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.selectOptions(within(image).getByRole('combobox', { name: /Analysis status/ }), 'Accepted');
    await user.type(within(image).getByRole('textbox', { name: /Reason/ }), 'Fine.');
    await user.click(within(image).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.state).toMatchObject({ analyseEvidenceId: 11 }));
    expect(router.state.location.pathname).toBe(REPORT_PATH);
    image = await openImage();
    const reason = await within(image).findByRole('textbox', { name: /Reason/ });
    expect(reason).toHaveValue('Fine.');
    expect(reason).toHaveAccessibleDescription('5 of 4000 characters Ensure this field has no more than 4000 characters.');
    const status = within(image).getByRole('combobox', { name: /Analysis status/ });
    expect(status).toHaveValue('22002');
    expect(status).toHaveAccessibleDescription('Select a valid choice.');

    // A server message stays until its field is edited.
    await user.type(reason, ' Really.');
    expect(reason).toHaveAccessibleDescription('13 of 4000 characters');
  });

  it('says the save failed when the route gets no answer it can show, keeping the values', async () => {
    const user = userEvent.setup();
    serveReport(server, report());
    server.use(http.put('/api/v1/report/:reportId/evidence/:evidenceId/analysis', () => HttpResponse.json({}, { status: 503 })));
    renderRemote({ server, path: REPORT_PATH, permissions: LEARNER });

    let image = await openImage();
    await user.click(within(image).getByRole('button', { name: 'Analyse' }));
    await user.selectOptions(within(image).getByRole('combobox', { name: /Analysis status/ }), 'Accepted');
    await user.type(within(image).getByRole('textbox', { name: /Reason/ }), 'Fine.');
    await user.click(within(image).getByRole('button', { name: 'Save' }));

    // The action route re-renders the report: query the article afresh on every try. A 503 is
    // retried (1 s, 2 s…) before the page gives up, so the message comes after a few seconds.
    await waitFor(
      () =>
        expect(within(screen.getByRole('article', { name: 'Image 1: Knee AP' })).getByRole('alert')).toHaveTextContent(
          'The analysis could not be saved. Please try again.',
        ),
      { timeout: 15_000 },
    );
    image = await openImage();
    expect(within(image).getByRole('textbox', { name: /Reason/ })).toHaveValue('Fine.');
  });

  it('opens the form from the analysis action route and returns to the report', async () => {
    serveReport(server, report({ evidence: [evidence(), evidence({ id: 12, practiceActivity: 'Hand PA' })] }));
    const { router } = renderRemote({ server, path: `${REPORT_PATH}/evidence/12/analysis`, permissions: LEARNER });

    const second = await openImage('Image 2: Hand PA');
    expect(router.state.location.pathname).toBe(REPORT_PATH);
    expect(within(second).getByRole('combobox', { name: /Analysis status/ })).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Image 1: Knee AP' })).queryByRole('combobox')).not.toBeInTheDocument();
  });
});
