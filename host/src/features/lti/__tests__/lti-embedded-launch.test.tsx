import { act, screen, waitFor } from '@testing-library/react';
import { axe } from 'jest-axe';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { isFramed } from '../components/is-framed';
import { forgetFragmentValues } from '../components/take-fragment-value';

jest.mock('../components/is-framed', () => ({ isFramed: jest.fn(() => false) }));

const server = setupTestServer();
const LAUNCH = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const FRAME_KEY = 'k'.repeat(43);
const TICKET = 't'.repeat(43);

/** The launch-window routes: whether the cookie arrived, tickets (recorded), a redeem. */
function serveLaunchWindow({ cookie, ticket = true }: { cookie: boolean; ticket?: boolean }) {
  const calls = { status: 0, tickets: [] as unknown[], redeems: [] as unknown[] };
  server.use(
    http.get(`/api/lti/launch-window/${LAUNCH}`, () => {
      calls.status += 1;
      return HttpResponse.json({ cookie });
    }),
    http.post(`/api/lti/launch-window/${LAUNCH}/ticket`, async ({ request }) => {
      calls.tickets.push(await request.json());
      return ticket
        ? HttpResponse.json({ ticket: TICKET, expiresInSeconds: 120 }, { status: 201 })
        : HttpResponse.json({ frameKey: ['expired'] }, { status: 400 });
    }),
    http.post('/api/lti/launch-window/redeem', async ({ request }) => {
      calls.redeems.push(await request.json());
      return calls.redeems.length === 1
        ? HttpResponse.json({
            launchId: LAUNCH,
            location: `/lti/launch?launchId=${LAUNCH}&mode=practice`,
          })
        : HttpResponse.json({ ticket: ['used'] }, { status: 400 });
    }),
  );
  return calls;
}

/** The page as the browser opens it: the fragment is in the real address, which the page reads. */
function openAt(url: string) {
  forgetFragmentValues();
  window.history.replaceState(null, '', url);
  return renderApp({ server, route: url.replace(/#.*$/, ''), user: null });
}

afterEach(() => {
  jest.mocked(isFramed).mockReturnValue(false);
  window.history.replaceState(null, '', '/');
});

describe('LTI launch inside the platform frame', () => {
  it('offers "Open in a new window" with a ticket when the frame could not keep the cookie; keyboard and axe-clean', async () => {
    jest.mocked(isFramed).mockReturnValue(true);
    const calls = serveLaunchWindow({ cookie: false });
    const { container, user } = openAt(`/lti/launch?launchId=${LAUNCH}#frameKey=${FRAME_KEY}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Continue in a new window' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/does not let the portal keep your sign-in/)).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: 'Open in a new window' });
    expect(link).toHaveAttribute('href', `/lti/open#ticket=${TICKET}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(calls.tickets).toEqual([{ frameKey: FRAME_KEY }]);
    // The key left the address as soon as it was read; the query stays.
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe(`?launchId=${LAUNCH}`);
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();

    await user.tab();
    while (document.activeElement !== link) await user.tab();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'The activity continues in the new window.',
    );
    // The ticket went with that window: a fresh one is fetched for the next.
    await waitFor(() => expect(calls.tickets).toHaveLength(2));
    expect(await axe(container)).toHaveNoViolations();
  });

  it('says so in German', async () => {
    jest.mocked(isFramed).mockReturnValue(true);
    serveLaunchWindow({ cookie: false });
    await act(() => i18next.changeLanguage('de'));
    try {
      openAt(`/lti/launch?launchId=${LAUNCH}#frameKey=${FRAME_KEY}`);
      expect(
        await screen.findByRole('heading', { name: 'In einem neuen Fenster fortfahren' }),
      ).toBeInTheDocument();
      expect(
        await screen.findByRole('link', { name: 'In neuem Fenster öffnen' }),
      ).toBeInTheDocument();
    } finally {
      await act(() => i18next.changeLanguage('en'));
    }
  });

  it('tells the user to start again when no ticket can be had (the key is missing or expired)', async () => {
    jest.mocked(isFramed).mockReturnValue(true);
    serveLaunchWindow({ cookie: false, ticket: false });
    openAt(`/lti/launch?launchId=${LAUNCH}#frameKey=${FRAME_KEY}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Open the activity again from your learning platform.',
    );
    expect(screen.queryByRole('link', { name: 'Open in a new window' })).not.toBeInTheDocument();
  });

  it('goes on as before when the cookie arrived in the frame', async () => {
    jest.mocked(isFramed).mockReturnValue(true);
    const calls = serveLaunchWindow({ cookie: true });
    openAt(`/lti/launch?launchId=${LAUNCH}#frameKey=${FRAME_KEY}`);
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(calls.status).toBe(1);
    expect(calls.tickets).toEqual([]);
  });

  it('does not ask at the top level', async () => {
    const calls = serveLaunchWindow({ cookie: false });
    openAt(`/lti/launch?launchId=${LAUNCH}`);
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(calls.status).toBe(0);
  });
});

describe('LTI launch continued in a new window', () => {
  it('redeems the ticket once, drops it from the address and continues at the launch page', async () => {
    const calls = serveLaunchWindow({ cookie: true });
    const { router } = openAt(`/lti/open#ticket=${TICKET}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/lti/launch'));
    expect(router.state.location.search).toBe(`?launchId=${LAUNCH}&mode=practice`);
    expect(calls.redeems).toEqual([{ ticket: TICKET }]);
    expect(window.location.hash).toBe('');
  });

  it('explains a used or expired ticket, axe-clean', async () => {
    const calls = serveLaunchWindow({ cookie: true });
    calls.redeems.push('spent before');
    const { container } = openAt(`/lti/open#ticket=${'u'.repeat(43)}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link cannot be used' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/used already or has expired/)).toBeInTheDocument();
    expect(await axe(container)).toHaveNoViolations();
  });
});
