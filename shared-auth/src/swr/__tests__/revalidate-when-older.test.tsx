import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { useSWRConfig } from 'swr';
import { PortalSWRConfig } from '../portal-swr-config';
import { SWR_CACHE_TIME_MS } from '../revalidate-when-older';
import { useApi } from '../use-api';
import { setupMswServer } from '../../test-utils/msw-server';
import { currentUserFixture, storeUser, testUserManager, WHOAMI_URL } from '../../test-utils/oidc';
import { renderWithAuth } from '../../test-utils/render-with-auth';

const server = setupMswServer();
const PRODUCTS = 'http://localhost/api/v1/product';

function Products() {
  const { data } = useApi<{ id: number; name: string }[]>('/api/v1/product');
  return <p>{data ? `Products: ${data.map((p) => p.name).join()}` : 'Loading'}</p>;
}

/** A screen that is left and opened again, as moving between pages does. */
function Screen() {
  const [open, setOpen] = useState(true);
  const { mutate } = useSWRConfig();
  return (
    <>
      <button type="button" onClick={() => setOpen((o) => !o)}>
        Toggle
      </button>
      {/* What a mutation hook does after a write: revalidate the lists it changed. */}
      <button type="button" onClick={() => void mutate((key) => key === '/api/v1/product')}>
        Change products
      </button>
      {open && <Products />}
    </>
  );
}

const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

async function signIn() {
  server.use(http.get(WHOAMI_URL, () => HttpResponse.json(currentUserFixture())));
  const manager = testUserManager();
  // Longer than the clock jumps below, so the token stays valid.
  await storeUser(manager, { expiresIn: 3_600, accessToken: 'cache-token' });
  return manager;
}

/** The product list, counting its fetches. */
function serveProducts() {
  const served = { calls: 0 };
  server.use(
    http.get(PRODUCTS, () => {
      served.calls += 1;
      return HttpResponse.json([{ id: 1, name: `Radiography ${served.calls}` }]);
    }),
  );
  return served;
}

async function renderScreen() {
  const manager = await signIn();
  // No deduping: only the cache age decides whether a screen fetches again.
  renderWithAuth(
    <PortalSWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <Screen />
    </PortalSWRConfig>,
    { manager },
  );
  expect(await screen.findByText('Products: Radiography 1')).toBeInTheDocument();
}

async function reopen() {
  fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
  fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
  await screen.findByText(/^Products:/);
  await pause(100);
}

let offset = 0;
beforeEach(() => {
  localStorage.clear();
  offset = 0;
  const realNow = Date.now.bind(Date);
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterEach(() => jest.restoreAllMocks());

it('is five minutes', () => {
  expect(SWR_CACHE_TIME_MS).toBe(300_000);
});

it('serves data younger than 5 minutes from the cache and fetches older data again when a screen opens', async () => {
  const served = serveProducts();
  await renderScreen();

  offset = SWR_CACHE_TIME_MS - 1_000;
  await reopen();
  expect(served.calls).toBe(1);
  expect(screen.getByText('Products: Radiography 1')).toBeInTheDocument();

  // Focus never refetches, whatever the age.
  offset = SWR_CACHE_TIME_MS + 1_000;
  await act(async () => {
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await pause(100);
  expect(served.calls).toBe(1);

  await reopen();
  expect(await screen.findByText('Products: Radiography 2')).toBeInTheDocument();
  expect(served.calls).toBe(2);

  // The new answer is fresh again for 5 minutes.
  offset += 60_000;
  await reopen();
  expect(served.calls).toBe(2);
});

it('fetches data changed while no screen showed it when its screen opens again, however young', async () => {
  const served = serveProducts();
  await renderScreen();

  fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
  fireEvent.click(screen.getByRole('button', { name: 'Change products' }));
  await pause(100);
  expect(served.calls).toBe(1);
  fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
  expect(await screen.findByText('Products: Radiography 2')).toBeInTheDocument();
  expect(served.calls).toBe(2);
});
