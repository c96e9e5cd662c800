import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { http, HttpResponse } from 'msw';
import type { FieldErrors, LtiRosterSummary, LtiRosterSync } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { instructor, instructorLaunchRoute, INSTRUCTOR_LAUNCH_ID } from '../../../testing/lti-instructor';
import { courseGradeRelease, launchOwner } from '../../../testing/handlers';

const server = setupTestServer();
const LAUNCH_ID = INSTRUCTOR_LAUNCH_ID;
const SYNC_ID = '0b9e8d7c-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
const route = instructorLaunchRoute;

const SUMMARY: LtiRosterSummary = {
  courseTitle: 'Demo course',
  learners: 12,
  lastSyncedAt: null,
  lastSync: null,
};

const sync = (overrides: Partial<LtiRosterSync> = {}): LtiRosterSync => ({
  id: SYNC_ID,
  status: 'done',
  added: 93,
  reactivated: 1,
  deactivated: 2,
  unchanged: 4,
  refused: [
    { name: 'Nia Noseat', reason: 'no_seat' },
    { name: 'user 2013', reason: 'no_email' },
  ],
  createdAt: '2026-11-26T10:00:00.000Z',
  finishedAt: '2026-11-26T10:00:05.000Z',
  ...overrides,
});

/** The roster API: the summary (learners grow after a sync), the start, the sync (running first). */
function serve({
  summary = () => HttpResponse.json<LtiRosterSummary>(SUMMARY),
  start = () => HttpResponse.json({ id: SYNC_ID }, { status: 202 }),
  result = sync(),
}: {
  summary?: () => Response;
  start?: () => Response;
  result?: LtiRosterSync;
} = {}) {
  const started: unknown[] = [];
  let polls = 0;
  server.use(
    http.get('/api/v1/lti/roster-sync/launch/:launchId', summary),
    http.post('/api/v1/lti/roster-sync', async ({ request }) => {
      started.push(await request.json());
      return start();
    }),
    http.get('/api/v1/lti/roster-sync/:id', () =>
      HttpResponse.json<LtiRosterSync>(polls++ === 0 ? sync({ status: 'running' }) : result),
    ),
  );
  return started;
}

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe('LTI launch page: the course roster panel', () => {
  // The instructor's own launch (the mismatch check passes).
  // Its course offers no grade release choice here (lti-grade-release-panel.test.tsx has that).
  beforeEach(() =>
    server.use(
      launchOwner({ mine: true, launchedAs: { name: 'Ed Educator' } }),
      courseGradeRelease({ status: 400 }),
    ),
  );

  it('an instructor syncs by keyboard and sees what changed, who was refused and why; axe-clean', async () => {
    let learners = 12;
    const started = serve({
      summary: () => HttpResponse.json<LtiRosterSummary>({ ...SUMMARY, learners }),
    });
    const { user, container, router } = renderApp({ server, route, user: instructor() });

    expect(await screen.findByRole('heading', { name: 'Course roster' })).toBeInTheDocument();
    expect(screen.getByText(/Demo course: 12 learners\./)).toBeInTheDocument();
    expect(screen.getByText(/Not synced yet\./)).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();

    learners = 105;
    const button = screen.getByRole('button', { name: 'Sync now' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(started).toEqual([{ launchId: LAUNCH_ID }]);

    const status = screen.getByRole('status');
    await waitFor(
      () =>
        expect(status).toHaveTextContent('Added 93, reactivated 1, deactivated 2, unchanged 4.'),
      { timeout: 4000 },
    );
    expect(status).toHaveTextContent('2 members could not be added:');
    expect(
      screen.getByText("Nia Noseat: no free seat on your organisation's licences"),
    ).toBeInTheDocument();
    expect(
      screen.getByText('user 2013: no e-mail address from the learning platform'),
    ).toBeInTheDocument();
    // The summary is read again after the sync.
    expect(await screen.findByText(/Demo course: 105 learners\./)).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();

    // Continue goes on to the simulation with the launch's query.
    await user.click(screen.getByRole('button', { name: 'Continue to the simulation' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
    expect(router.state.location.search).toBe(`?launchId=${LAUNCH_ID}&productId=1`);
  });

  it('in German, with a failed sync and its reason', async () => {
    serve({
      summary: () =>
        HttpResponse.json<LtiRosterSummary>({
          ...SUMMARY,
          learners: 1,
          lastSyncedAt: '2026-11-20T08:30:00.000Z',
        }),
      result: sync({
        status: 'failed',
        error: 'The learning platform is not available (memberships: HTTP_STATUS (HTTP 503)).',
      }),
    });
    const { user, container } = renderApp({ server, route, user: instructor('de') });

    expect(await screen.findByRole('heading', { name: 'Kursteilnehmende' })).toBeInTheDocument();
    expect(screen.getByText(/Demo course: 1 lernende Person\./)).toBeInTheDocument();
    expect(screen.getByText(/Zuletzt abgeglichen am 20\.11\.2026/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Jetzt abgleichen' }));
    await waitFor(
      () =>
        expect(screen.getByRole('status')).toHaveTextContent(
          'Der Abgleich ist fehlgeschlagen; es wurde nichts geändert.',
        ),
      { timeout: 4000 },
    );
    expect(screen.getByRole('button', { name: 'Weiter zur Simulation' })).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });

  it('a refused start shows the API’s reason for the launch', async () => {
    serve({
      start: () =>
        HttpResponse.json<FieldErrors>(
          {
            launchId: [
              'This launch is older than a day. Open the activity from the course again to sync its roster.',
            ],
          },
          { status: 400 },
        ),
    });
    const { user } = renderApp({ server, route, user: instructor() });
    await user.click(await screen.findByRole('button', { name: 'Sync now' }));
    expect(await screen.findByText(/older than a day/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled();
  });

  it('an instructor whose launch offers no roster goes straight on to the simulation', async () => {
    serve({
      summary: () => HttpResponse.json<FieldErrors>({ launchId: ['no roster'] }, { status: 400 }),
    });
    const { router } = renderApp({ server, route, user: instructor() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
    expect(screen.queryByRole('heading', { name: 'Course roster' })).not.toBeInTheDocument();
  });
});
