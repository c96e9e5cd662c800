import { useState } from 'react';
import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { PortalSWRConfig } from '../portal-swr-config';
import { SWR_CACHE_TIME_MS } from '../drop-unused-after';
import { useApi } from '../use-api';
import { setupMswServer } from '../../test-utils/msw-server';
import { currentUserFixture, storeUser, testUserManager, WHOAMI_URL } from '../../test-utils/oidc';
import { renderWithAuth } from '../../test-utils/render-with-auth';

const server = setupMswServer();
const PRODUCTS = 'http://localhost/api/v1/product';

/** Each render's text, so a test sees whether old data was shown before the new arrived. */
const shown: string[] = [];

function Products() {
  const { data } = useApi<{ id: number; name: string }[]>('/api/v1/product');
  const text = data ? `Products: ${data.map((p) => p.name).join()}` : 'Loading';
  shown.push(text);
  return <p>{text}</p>;
}

/** A screen that is left and opened again, as moving between pages does. */
function Screen() {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen((o) => !o)}>
        Toggle
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

async function close() {
  fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
  await pause(50);
}

/** Opens the screen again; what it showed first and last. */
async function open(expected: string) {
  shown.length = 0;
  fireEvent.click(screen.getByRole('button', { name: 'Toggle' }));
  await screen.findByText(expected);
  await pause(50);
  return { first: shown[0], last: shown.at(-1) };
}

let offset = 0;
beforeEach(() => {
  localStorage.clear();
  offset = 0;
  shown.length = 0;
  const realNow = Date.now.bind(Date);
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterEach(() => jest.restoreAllMocks());

it('is five minutes', () => {
  expect(SWR_CACHE_TIME_MS).toBe(300_000);
});

it('shows data a screen left less than 5 minutes ago at once and revalidates it', async () => {
  const served = serveProducts();
  await renderScreen();
  await close();

  offset = SWR_CACHE_TIME_MS - 1_000;
  expect(await open('Products: Radiography 2')).toEqual({ first: 'Products: Radiography 1', last: 'Products: Radiography 2' });
  expect(served.calls).toBe(2);
});

it('loads data no screen showed for 5 minutes afresh instead of showing it', async () => {
  const served = serveProducts();
  await renderScreen();
  await close();

  offset = SWR_CACHE_TIME_MS;
  expect(await open('Products: Radiography 2')).toEqual({ first: 'Loading', last: 'Products: Radiography 2' });
  expect(served.calls).toBe(2);
});

it('keeps data a screen shows, however old, and never refetches it on focus', async () => {
  const served = serveProducts();
  await renderScreen();

  offset = 2 * SWR_CACHE_TIME_MS;
  await act(async () => {
    window.dispatchEvent(new Event('focus'));
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await pause(100);
  expect(served.calls).toBe(1);
  expect(screen.getByText('Products: Radiography 1')).toBeInTheDocument();
});
