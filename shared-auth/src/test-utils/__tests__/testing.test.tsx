import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import useSWR from 'swr';
import { useAuth } from '../../auth/use-auth';
import { setupMswServer } from '../msw-server';
import { currentUser, fakeUserManager, SignedInProviders, TEST_ACCESS_TOKEN, whoami } from '../testing';

const server = setupMswServer();

function Probe() {
  const auth = useAuth();
  // The default fetcher is the API client's GET: a key is all a screen gives.
  const { data, error } = useSWR<{ count: number }>(auth.status === 'authenticated' ? '/api/v1/thing' : null);
  if (auth.status !== 'authenticated') return <p>{auth.status}</p>;
  return (
    <p>
      {`${auth.user.firstName} holds ${auth.user.permissions.join(',')}; `}
      {error ? 'load failed' : data ? `count ${data.count}` : 'loading'}
    </p>
  );
}

describe('@portal/shared-auth/testing', () => {
  it('signs the fixture user in and fetches with its bearer token through the portal SWR config', async () => {
    const authorizations: (string | null)[] = [];
    server.use(
      whoami(currentUser({ firstName: 'Olga', permissions: ['global.view_org'] })),
      http.get('/api/v1/thing', ({ request }) => {
        authorizations.push(request.headers.get('Authorization'));
        return HttpResponse.json({ count: 3 });
      }),
    );

    render(
      <SignedInProviders>
        <Probe />
      </SignedInProviders>,
    );

    expect(await screen.findByText('Olga holds global.view_org; count 3')).toBeInTheDocument();
    expect(authorizations).toEqual([`Bearer ${TEST_ACCESS_TOKEN}`]);
  });

  it('gives every render its own cache, so an answer of one test never shows in the next', async () => {
    let count = 0;
    server.use(
      whoami(currentUser()),
      http.get('/api/v1/thing', () => HttpResponse.json({ count: (count += 1) })),
    );
    const first = render(
      <SignedInProviders>
        <Probe />
      </SignedInProviders>,
    );
    expect(await screen.findByText(/count 1/)).toBeInTheDocument();
    first.unmount();

    render(
      <SignedInProviders>
        <Probe />
      </SignedInProviders>,
    );
    expect(await screen.findByText(/count 2/)).toBeInTheDocument();
  });

  it('does not retry a failed load, so the error shows at once', async () => {
    let calls = 0;
    server.use(
      whoami(currentUser()),
      http.get('/api/v1/thing', () => {
        calls += 1;
        return HttpResponse.json({ detail: 'boom' }, { status: 500 });
      }),
    );
    render(
      <SignedInProviders>
        <Probe />
      </SignedInProviders>,
    );
    expect(await screen.findByText(/load failed/)).toBeInTheDocument();
    expect(calls).toBe(1);
  });

  it('stays signed out with a signed-out user manager', async () => {
    const manager = fakeUserManager({ signedIn: false });
    render(
      <SignedInProviders userManager={manager}>
        <Probe />
      </SignedInProviders>,
    );
    expect(await screen.findByText('unauthenticated')).toBeInTheDocument();
    expect(manager.getUser).toHaveBeenCalled();
  });
});
