import type { ReactElement } from 'react';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { PortalSWRConfig } from '../portal-swr-config';
import { useApi } from '../use-api';
import { NotFoundError } from '../../api/errors';
import { setupMswServer } from '../../test-utils/msw-server';
import { currentUserFixture, storeUser, testUserManager, WHOAMI_URL } from '../../test-utils/oidc';
import { renderWithAuth } from '../../test-utils/render-with-auth';

const server = setupMswServer();

interface Product {
  id: number;
  name: string;
}

function Products({ path }: { path: string | null }) {
  const { data, error, isLoading } = useApi<Product[]>(path);
  if (error)
    return <p>{error instanceof NotFoundError ? 'Page not found' : 'Something went wrong'}</p>;
  if (isLoading) return <p>Loading products</p>;
  if (!data) return <p>Waiting</p>;
  return (
    <ul>
      {data.map((p) => (
        <li key={p.id}>{p.name}</li>
      ))}
    </ul>
  );
}

async function signedIn() {
  server.use(http.get(WHOAMI_URL, () => HttpResponse.json(currentUserFixture())));
  const manager = testUserManager();
  await storeUser(manager, { expiresIn: 300, accessToken: 'swr-token' });
  return manager;
}

/** A fresh SWR cache per test, as each page load would have. */
function withPortalSWR(element: ReactElement) {
  return <PortalSWRConfig value={{ provider: () => new Map() }}>{element}</PortalSWRConfig>;
}

beforeEach(() => localStorage.clear());

it('loads data through the authenticated API client', async () => {
  const manager = await signedIn();
  const authorization: (string | null)[] = [];
  server.use(
    http.get('http://localhost/api/v1/product', ({ request }) => {
      authorization.push(request.headers.get('Authorization'));
      return HttpResponse.json([{ id: 1, name: 'Radiography' }]);
    }),
  );

  renderWithAuth(withPortalSWR(<Products path="/api/v1/product" />), { manager });

  expect(await screen.findByText('Radiography')).toBeInTheDocument();
  expect(authorization).toEqual(['Bearer swr-token']);
});

it('waits while the key is null', async () => {
  const manager = await signedIn();

  renderWithAuth(withPortalSWR(<Products path={null} />), { manager });

  expect(await screen.findByText('Waiting')).toBeInTheDocument();
});

it('reports a 403 as NotFoundError and does not retry it', async () => {
  const manager = await signedIn();
  let calls = 0;
  server.use(
    http.get('http://localhost/api/v1/product/9', () => {
      calls += 1;
      return HttpResponse.json({ detail: 'Forbidden' }, { status: 403 });
    }),
  );

  renderWithAuth(withPortalSWR(<Products path="/api/v1/product/9" />), { manager });

  expect(await screen.findByText('Page not found')).toBeInTheDocument();
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  expect(calls).toBe(1);
});
