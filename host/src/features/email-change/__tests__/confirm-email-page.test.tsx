import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { EmailChangeRefusal, EmailChangeTokenInput } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const server = setupTestServer();
const TOKEN = 'a'.repeat(43);

/** The API's two link routes: `lookup` answers the preview, `confirm` confirms; both recorded. */
function serveLink({
  refusal,
  confirmRefusal,
}: {
  refusal?: EmailChangeRefusal & { status: number };
  confirmRefusal?: EmailChangeRefusal & { status: number };
} = {}) {
  const calls: Array<{ path: string; token: string }> = [];
  const answer = (path: string, ok: object, refused?: EmailChangeRefusal & { status: number }) =>
    http.post<never, EmailChangeTokenInput>(`/api/v1/email-change/${path}`, async ({ request }) => {
      calls.push({ path, token: (await request.json()).token });
      if (refused)
        return HttpResponse.json(
          { detail: refused.detail, code: refused.code },
          { status: refused.status },
        );
      return HttpResponse.json(ok);
    });
  server.use(
    answer(
      'lookup',
      { email: 'mara.new@example.test', expiresAt: '2026-11-27T08:00:00Z' },
      refusal,
    ),
    answer('confirm', { email: 'mara.new@example.test' }, confirmRefusal),
  );
  return { calls };
}

describe('confirm e-mail page', () => {
  it('shows the new address, changes nothing until the button is pressed, then confirms once', async () => {
    const { calls } = serveLink();
    const { user } = renderApp({ server, route: `/confirm-email#token=${TOKEN}`, user: null });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Confirm your new e-mail address' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(/make mara\.new@example\.test the e-mail address of your account/),
    ).toBeInTheDocument();
    expect(calls).toEqual([{ path: 'lookup', token: TOKEN }]);

    // Keyboard: the button is reachable with Tab and pressed with Enter.
    const button = screen.getByRole('button', { name: 'Confirm e-mail address' });
    await user.tab();
    while (document.activeElement !== button) await user.tab();
    await user.keyboard('{Enter}');

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Done: your e-mail address is now mara.new@example.test.',
    );
    expect(calls.map((c) => c.path)).toEqual(['lookup', 'confirm']);
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toHaveAttribute('href', '/');
  });

  it.each([
    [
      'expired',
      410,
      'This confirmation link has expired. Ask your administrator to change the address again.',
    ],
    ['used', 409, 'This confirmation link has already been used.'],
    [
      'invalid',
      404,
      'This confirmation link is not valid. It may have been replaced by a newer one or withdrawn.',
    ],
  ] as const)('explains a %s link and offers no button', async (code, status, message) => {
    serveLink({ refusal: { code, status, detail: 'x' } });
    renderApp({ server, route: `/confirm-email#token=${TOKEN}`, user: null });

    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('alert')).toHaveTextContent('Please contact your administrator.');
    expect(
      screen.queryByRole('button', { name: 'Confirm e-mail address' }),
    ).not.toBeInTheDocument();
  });

  it('a link without a token is invalid, and nothing is asked of the API', async () => {
    const { calls } = serveLink();
    renderApp({ server, route: '/confirm-email', user: null });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This confirmation link is not valid.',
    );
    expect(calls).toEqual([]);
  });

  it('says so when the address was taken meanwhile, at the confirm', async () => {
    serveLink({ confirmRefusal: { code: 'taken', status: 409, detail: 'x' } });
    const { user } = renderApp({ server, route: `/confirm-email#token=${TOKEN}`, user: null });
    await user.click(await screen.findByRole('button', { name: 'Confirm e-mail address' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Another account uses this e-mail address by now, so it cannot be confirmed.',
      ),
    );
  });
});
