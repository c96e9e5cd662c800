import { act, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import type { UserNotification } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { currentUser } from '../../../testing/fixtures';
import { markNotificationRead, myNotifications } from '../../../testing/handlers';

const server = setupTestServer();

const KNEE = '8a3c2b1e-5d4f-4a6b-9c7d-0e1f2a3b4c5d';
const HAND = '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9';

function notification(id: number, reportId: string, reportName: string, read: boolean): UserNotification {
  return { id, kind: 'report_feedback', reportId, reportName, createdAt: '2026-11-26T09:30:00.000Z', read };
}

// jsdom has no viewport width, so the sidebar is the small-screen slide-over: open it first.
async function openSidebar(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: /^(Menu|Menü)$/ }));
}

const twoUnread = () => [notification(7, KNEE, 'Knee', false), notification(5, HAND, 'Hand', false)];

describe('Notifications in the sidebar', () => {
  afterEach(() => act(() => i18next.changeLanguage('en')));

  it('names the unread count, lists each notification with its time and links it to its report', async () => {
    const { user } = renderApp({ server, route: '/support', notifications: [...twoUnread(), notification(3, KNEE, 'Knee', true)] });
    await openSidebar(user);

    const button = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);

    expect(button).toHaveAttribute('aria-expanded', 'true');
    const list = await screen.findByRole('region', { name: 'Notifications' });
    const links = within(list).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      expect.stringMatching(/^Unread: New feedback on your Knee report/),
      expect.stringMatching(/^Unread: New feedback on your Hand report/),
      expect.stringMatching(/^New feedback on your Knee report/),
    ]);
    expect(links[0]).toHaveAttribute('href', `/report/${KNEE}`);
    expect(links[1]).toHaveAttribute('href', `/report/${HAND}`);
    expect(within(links[0]!).getByText(/26\/11\/2026|2026/)).toHaveAttribute('datetime', '2026-11-26T09:30:00.000Z');
    expect(await axe(document.body)).toHaveNoViolations();
  });

  it('says so when there is nothing unread, and when there is nothing at all', async () => {
    const { user } = renderApp({ server, route: '/support' });
    await openSidebar(user);

    const button = await screen.findByRole('button', { name: 'Notifications' });
    await user.click(button);
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
  });

  it('marks a notification read when it is followed, and the count goes down', async () => {
    let list = twoUnread();
    const read: number[] = [];
    server.use(
      markNotificationRead((id) => {
        read.push(id);
        list = list.map((n) => (n.id === id ? { ...n, read: true } : n));
      }),
    );
    const { user, router } = renderApp({ server, route: '/support', notifications: list });
    await openSidebar(user);
    server.use(myNotifications(() => list));

    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await user.click(await screen.findByRole('link', { name: /New feedback on your Hand report/ }));

    await waitFor(() => expect(router.state.location.pathname).toBe(`/report/${HAND}`));
    expect(read).toEqual([5]);
    // Following a link closes the small-screen menu.
    await openSidebar(user);
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('works by keyboard: ArrowDown opens it, the arrows move, Escape closes and returns focus, Enter follows', async () => {
    const read: number[] = [];
    server.use(markNotificationRead((id) => read.push(id)));
    const { user, router } = renderApp({ server, route: '/support', notifications: twoUnread() });
    await openSidebar(user);

    const button = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    button.focus();
    await user.keyboard('{ArrowDown}');
    const knee = await screen.findByRole('link', { name: /Knee report/ });
    await waitFor(() => expect(knee).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('link', { name: /Hand report/ })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(knee).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('link', { name: /Hand report/ })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
    expect(screen.queryByRole('region', { name: 'Notifications' })).not.toBeInTheDocument();
    // That Escape was the list's: the small-screen menu around it stays open.
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');

    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('link', { name: /Knee report/ })).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/report/${KNEE}`));
    await waitFor(() => expect(read).toEqual([7]));
  });

  it('closes when focus leaves it', async () => {
    const { user } = renderApp({ server, route: '/support', notifications: twoUnread() });
    await openSidebar(user);

    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    await screen.findByRole('region', { name: 'Notifications' });
    await user.click(screen.getByRole('heading', { level: 1 }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Notifications' })).not.toBeInTheDocument());
  });

  it('speaks German', async () => {
    await act(() => i18next.changeLanguage('de'));
    const { user } = renderApp({ server, route: '/support', user: currentUser({ language: 'de' }), notifications: twoUnread() });
    await openSidebar(user);

    await user.click(await screen.findByRole('button', { name: 'Benachrichtigungen, 2 ungelesen' }));
    expect(await screen.findByRole('link', { name: /Neues Feedback zu Ihrem Bericht „Knee“/ })).toBeInTheDocument();
  });

  it('is not there for users who have no reports of their own', async () => {
    const { user } = renderApp({ server, route: '/support', user: currentUser({ permissions: ['global.access_sims'] }) });
    await openSidebar(user);

    expect(await screen.findByText('Welcome, Lena Learner')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).not.toBeInTheDocument();
  });
});
