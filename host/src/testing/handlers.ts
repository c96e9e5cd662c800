// MSW handlers typed with the contract: what the API answers, not how fetch is called.
import { http, HttpResponse } from 'msw';
import type {
  CookiePreference,
  CurrentUser,
  Detail,
  DownloadGroup,
  FieldErrors,
  FileDownload,
  LookupList,
  LtiCourseGradeRelease,
  LtiLaunchOwner,
  UserNotification,
  UserPreference,
} from '@portal/contract';
import { LANGUAGES, SKIN_TONES } from './fixtures';

export const whoami = (user: CurrentUser) =>
  http.get('/api/v1/user/whoami', () => HttpResponse.json<CurrentUser>(user));

export const getCookiePreference = (value: CookiePreference) =>
  http.get('/api/v1/user/:id/cookie-preference', () => HttpResponse.json<CookiePreference>(value));

export const putCookiePreference = (onBody: (body: CookiePreference) => void, status = 200) =>
  http.put('/api/v1/user/:id/cookie-preference', async ({ request }) => {
    const body = (await request.json()) as CookiePreference;
    onBody(body);
    return status === 200
      ? HttpResponse.json<CookiePreference>(body)
      : HttpResponse.json({ detail: 'Server error' }, { status });
  });

export const myNotifications = (list: UserNotification[] | (() => UserNotification[])) =>
  http.get('/api/v1/notification/mine', () =>
    HttpResponse.json<UserNotification[]>(typeof list === 'function' ? list() : list),
  );

export const markNotificationRead = (onRead: (id: number) => void) =>
  http.post('/api/v1/notification/mine/:id/read', ({ params }) => {
    onRead(Number(params.id));
    return new HttpResponse(null, { status: 204 });
  });

export const lookups = () =>
  http.get('/api/v1/lookup', ({ request }) => {
    const field = new URL(request.url).searchParams.get('field');
    if (field === 'language') return HttpResponse.json<LookupList>(LANGUAGES);
    if (field === 'skinTone') return HttpResponse.json<LookupList>(SKIN_TONES);
    return HttpResponse.json({ field: [`Unknown field "${field}".`] }, { status: 400 });
  });

export const getPreference = (value: UserPreference) =>
  http.get('/api/v1/user/:id/preference', () => HttpResponse.json<UserPreference>(value));

export const putPreference = (answer: (body: UserPreference) => { status: number; body: UserPreference | FieldErrors }) =>
  http.put('/api/v1/user/:id/preference', async ({ request }) => {
    const { status, body } = answer((await request.json()) as UserPreference);
    return HttpResponse.json(body, { status });
  });

type Answer<T> = { status: number; body: T | Detail };

/** `answer` may be async, so a test can hold the response back and look at the loading state. */
export const getUserDownloads = (answer: (userId: string) => Answer<DownloadGroup[]> | Promise<Answer<DownloadGroup[]>>) =>
  http.get('/api/v1/user/:id/simulation-download', async ({ params }) => {
    const { status, body } = await answer(String(params.id));
    return HttpResponse.json(body, { status });
  });

/** `answer` may be async, so a test can hold the signed URL back and look at the busy state. */
export const getInstallerFile = (answer: (fileId: string) => Answer<FileDownload> | Promise<Answer<FileDownload>>) =>
  http.get('/api/v1/file/:id/download/sim-installation-file', async ({ params }) => {
    const { status, body } = await answer(String(params.id));
    return HttpResponse.json(body, { status });
  });

/** The LTI launch page's mismatch check: whether the launch is the signed-in user's own. */
/** The course grade release of an instructor's launch, or a refusal (`{status}`: a 400 naming launchId). */
export const courseGradeRelease = (answer: LtiCourseGradeRelease | { status: number }) =>
  http.get('/api/v1/lti/course-grade-release/:launchId', () =>
    'status' in answer
      ? HttpResponse.json({ launchId: ['no course'] } as FieldErrors, { status: answer.status })
      : HttpResponse.json(answer as LtiCourseGradeRelease),
  );

export const launchOwner = (owner: LtiLaunchOwner | { status: number }) =>
  http.get('/api/v1/lti/launch/:launchId/owner', () =>
    'mine' in owner
      ? HttpResponse.json<LtiLaunchOwner>(owner)
      : HttpResponse.json({ detail: 'Server error' }, { status: owner.status }),
  );
