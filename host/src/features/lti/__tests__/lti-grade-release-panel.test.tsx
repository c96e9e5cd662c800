import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { http, HttpResponse } from 'msw';
import type { FieldErrors, LtiCourseGradeRelease, LtiCourseGradeReleaseInput } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { instructor, instructorLaunchRoute, INSTRUCTOR_LAUNCH_ID } from '../../../testing/lti-instructor';
import { courseGradeRelease, launchOwner } from '../../../testing/handlers';

const server = setupTestServer();
const LAUNCH_ID = INSTRUCTOR_LAUNCH_ID;
const route = instructorLaunchRoute;

const SETTING: LtiCourseGradeRelease = {
  courseTitle: 'Demo course',
  gradeRelease: null,
  organisationDefault: 'automatic',
};

/** The course's setting, no roster (a course without NRPS), and the saves, remembered. */
function serve(answer: (body: LtiCourseGradeReleaseInput) => Response) {
  const saved: LtiCourseGradeReleaseInput[] = [];
  server.use(
    launchOwner({ mine: true, launchedAs: { name: 'Ed Educator' } }),
    courseGradeRelease(SETTING),
    http.get('/api/v1/lti/roster-sync/launch/:launchId', () =>
      HttpResponse.json<FieldErrors>({ launchId: ['no roster'] }, { status: 400 }),
    ),
    http.put('/api/v1/lti/course-grade-release', async ({ request }) => {
      const body = (await request.json()) as LtiCourseGradeReleaseInput;
      saved.push(body);
      return answer(body);
    }),
  );
  return saved;
}

afterEach(async () => {
  await i18next.changeLanguage('en');
});

describe("LTI launch page: the course's grade release", () => {
  it('an instructor of a course without a roster picks "after review" by keyboard and saves; axe-clean', async () => {
    const saved = serve(({ gradeRelease }) => HttpResponse.json<LtiCourseGradeRelease>({ ...SETTING, gradeRelease }));
    const { user, container } = renderApp({ server, route, user: instructor() });

    const group = await screen.findByRole('group', { name: 'When grades of Demo course go to the learning platform' });
    expect(screen.queryByRole('heading', { name: 'Course roster' })).not.toBeInTheDocument();
    const byDefault = screen.getByRole('radio', { name: 'Organisation default (automatic)' });
    expect(byDefault).toBeChecked();
    expect(group).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();

    byDefault.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('radio', { name: 'after review' })).toBeChecked();
    // Moving through the choices saves nothing.
    expect(saved).toEqual([]);
    await user.tab();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('status')).toHaveTextContent('Saved: after review.');
    expect(saved).toEqual([{ launchId: LAUNCH_ID, gradeRelease: 'after_review' }]);

    // Back to the organisation's default: null, not "automatic".
    await user.click(screen.getByRole('radio', { name: 'Organisation default (automatic)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toEqual({ launchId: LAUNCH_ID, gradeRelease: null });
    expect(await screen.findByText('Saved: Organisation default (automatic).')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue to the simulation' })).toBeEnabled();
  });

  it('in German, with the API’s refusal shown', async () => {
    await i18next.changeLanguage('de');
    serve(() =>
      HttpResponse.json<FieldErrors>({ launchId: ['This launch is older than a day.'] }, { status: 400 }),
    );
    const { user } = renderApp({ server, route, user: instructor('de') });

    expect(
      await screen.findByRole('group', { name: 'Wann Bewertungen von Demo course an die Lernplattform gehen' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Standard der Organisation (automatisch)' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'nach Prüfung' }));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('This launch is older than a day.')).toBeInTheDocument();
  });

  it('an instructor whose launch offers neither a roster nor a course goes straight on', async () => {
    serve(() => HttpResponse.json(SETTING));
    server.use(courseGradeRelease({ status: 400 }));
    const { router } = renderApp({ server, route, user: instructor() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/simulation/launch'));
  });
});
