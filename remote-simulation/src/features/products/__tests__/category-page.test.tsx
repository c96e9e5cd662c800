import { screen, within } from '@testing-library/react';
import type { CreateSessionBody } from '@portal/contract';
import {
  birthing,
  birthingCategories,
  radiography,
  radiographyCategories,
} from '../../../testing/fixtures';
import {
  createSession,
  getCategories,
  getEntitlementModes,
  getProducts,
} from '../../../testing/handlers';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';

const server = setupTestServer();

function catalogue(modes: ('VR' | 'Desktop')[] = ['VR', 'Desktop']) {
  server.use(
    getProducts([radiography, birthing]),
    getCategories({ 1: radiographyCategories, 3: birthingCategories }),
    getEntitlementModes(modes),
  );
}

// Launching opens the simulator in a new tab, which jsdom cannot do.
let open: jest.SpyInstance;
beforeEach(() => {
  open = jest.spyOn(window, 'open').mockImplementation(() => null);
});
afterEach(() => open.mockRestore());

const breadcrumbs = () => screen.getByRole('navigation', { name: 'Breadcrumb' });

describe('the category drill-down', () => {
  it("shows a product's categories as cards under breadcrumbs", async () => {
    catalogue();
    renderRemote({ server, path: '/simulation/1' });

    expect(
      await screen.findByRole('heading', { name: 'Radiography', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Lower limb' })).toHaveAttribute(
      'href',
      '/simulation/1/10',
    );
    expect(screen.getByRole('link', { name: 'Upper limb' })).toHaveAttribute(
      'href',
      '/simulation/1/20',
    );
    expect(within(breadcrumbs()).getByRole('link', { name: 'Simulations' })).toHaveAttribute(
      'href',
      '/simulation',
    );
    expect(within(breadcrumbs()).getByText('Radiography')).toHaveAttribute('aria-current', 'page');
    expect(document.title).toBe('Radiography - Simulation Portal');
  });

  it('drills down to a leaf, with a breadcrumb per level and one button per entitled mode', async () => {
    catalogue(['Desktop']);
    const { user } = renderRemote({ server, path: '/simulation/1' });

    await user.click(await screen.findByRole('link', { name: 'Lower limb' }));
    expect(
      await screen.findByRole('heading', { name: 'Lower limb', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^(Foot|Knee|Hip)$/ })).toHaveLength(3);

    await user.click(screen.getByRole('link', { name: 'Knee' }));
    expect(await screen.findByRole('heading', { name: 'Knee', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(radiography.selectionMessage as string)).toBeInTheDocument();

    const crumbs = within(breadcrumbs());
    expect(crumbs.getByRole('link', { name: 'Simulations' })).toHaveAttribute(
      'href',
      '/simulation',
    );
    expect(crumbs.getByRole('link', { name: 'Radiography' })).toHaveAttribute(
      'href',
      '/simulation/1',
    );
    expect(crumbs.getByRole('link', { name: 'Lower limb' })).toHaveAttribute(
      'href',
      '/simulation/1/10',
    );
    expect(crumbs.getByText('Knee')).toHaveAttribute('aria-current', 'page');

    expect(await screen.findByRole('button', { name: 'Desktop' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'VR' })).not.toBeInTheDocument();
  });

  it('offers VR and Desktop when the licence includes both', async () => {
    catalogue(['Desktop', 'VR']);
    renderRemote({ server, path: '/simulation/1/10/12' });

    const group = await screen.findByRole('group', { name: 'Launch mode' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['VR', 'Desktop']);
  });

  it("says the licence includes no mode when the user isn't entitled to any", async () => {
    catalogue([]);
    renderRemote({ server, path: '/simulation/1/10/12' });

    expect(
      await screen.findByText(/Your licence does not include a mode for this simulation/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(VR|Desktop)$/ })).not.toBeInTheDocument();
  });

  it('shows leaves that sit directly under the product, with the default selection text', async () => {
    catalogue();
    const { user } = renderRemote({ server, path: '/simulation/3' });

    await user.click(await screen.findByRole('link', { name: 'Kneeling' }));
    expect(await screen.findByRole('heading', { name: 'Kneeling', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Choose how you want to run this simulation.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'VR' })).toBeInTheDocument();
  });

  it('launches the chosen mode with the launch parameters as navigation state', async () => {
    catalogue();
    const sent: { productId: string; body: CreateSessionBody }[] = [];
    server.use(createSession(sent));
    const { user, router } = renderRemote({ server, path: '/simulation/1/10/12' });

    await user.click(await screen.findByRole('button', { name: 'VR' }));

    expect(router.state.location.pathname).toBe('/simulation/launch');
    expect(router.state.location.state).toEqual({
      configuration: 'radiography.lower-limb.knee',
      mode: 'VR',
      productId: 1,
      categoryId: 12,
    });
    expect(await screen.findByRole('link', { name: /^Open the simulator/ })).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      {
        configuration: 'radiography.lower-limb.knee',
        ltiLaunchId: null,
        mode: 'VR',
        categoryId: 12,
      },
    ]);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('launches under /lti with the launch parameters added to the learning platform query', async () => {
    catalogue();
    server.use(createSession([]));
    const { user, router } = renderRemote({
      server,
      path: '/lti/simulation/1/10/12?launchId=lti-7',
    });

    expect(await screen.findByRole('link', { name: 'Radiography' })).toHaveAttribute(
      'href',
      '/lti/simulation/1',
    );
    await user.click(await screen.findByRole('button', { name: 'Desktop' }));

    expect(router.state.location.pathname).toBe('/lti/simulation/launch');
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      launchId: 'lti-7',
      productId: '1',
      mode: 'Desktop',
      configuration: 'radiography.lower-limb.knee',
      categoryId: '12',
    });
  });

  it.each([
    ['a category id that does not exist', '/simulation/1/99'],
    ['a category that is not under the one before', '/simulation/1/20/12'],
    ['a leaf that is not at the top level', '/simulation/1/12'],
    ['a segment that is not an id', '/simulation/1/10/knee'],
    ['a product id that is not a number', '/simulation/radiography'],
    ['a product the user does not have', '/simulation/7'],
  ])('answers %s with page not found', async (_name, path) => {
    catalogue();
    server.use(getCategories({ 1: radiographyCategories, 3: birthingCategories, 7: [] }));
    renderRemote({ server, path });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('answers page not found when the API does not know the product', async () => {
    server.use(getProducts([radiography, { ...birthing, id: 8 }]), getCategories({}));
    renderRemote({ server, path: '/simulation/8' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
