import { screen } from '@testing-library/react';
import { RemoteArea, type LoadRemoteRoutes } from '../remote-area';
import { incompatibility } from '../remotes';
import { setupTestServer } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';

const server = setupTestServer();

describe('Remote area', () => {
  beforeEach(() => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('shows the unavailable view when the remote fails to load, and Retry really loads it again', async () => {
    const load = jest.fn<ReturnType<LoadRemoteRoutes>, Parameters<LoadRemoteRoutes>>();
    load.mockRejectedValueOnce(new Error('Loading chunk 42 failed.'));
    load.mockResolvedValueOnce([{ index: true, element: <h1>Your reports</h1> }]);
    const { user } = renderApp({ server, route: '/report', loadRemote: load });

    expect(await screen.findByText('This area is unavailable right now.')).toBeInTheDocument();
    // The rest of the portal keeps working.
    expect(screen.getByRole('button', { name: 'Menu' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('heading', { name: 'Your reports' })).toBeInTheDocument();
    expect(load.mock.calls).toEqual([
      ['reports', 0],
      ['reports', 1],
    ]);
  });

  it('contains a remote that throws while rendering', async () => {
    function Broken(): never {
      throw new Error('remote bug');
    }
    const load: LoadRemoteRoutes = async () => [{ index: true, element: <Broken /> }];
    renderApp({ server, route: '/simulation', loadRemote: load });

    expect(await screen.findByText('This area is unavailable right now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('mounts the remote routes below their path', async () => {
    const load: LoadRemoteRoutes = async () => [
      { path: 'learner', element: <h1>Learner reports</h1> },
    ];
    renderApp({ server, route: '/report/learner', loadRemote: load });

    expect(await screen.findByRole('heading', { name: 'Learner reports' })).toBeInTheDocument();
  });

  it('renders a route tree loaded before at once, without a loading step or a second load', () => {
    const load = jest.fn<ReturnType<LoadRemoteRoutes>, Parameters<LoadRemoteRoutes>>(
      () => new Promise(() => undefined),
    );
    const preloaded = [{ index: true, element: <h1>Your reports</h1> }];
    renderApp({
      server,
      route: '/report',
      routes: [
        {
          path: '/report/*',
          element: <RemoteArea name="reports" load={load} loaded={() => preloaded} />,
        },
      ],
    });

    // Synchronously: no spinner frame between the click and the page.
    expect(screen.getByRole('heading', { name: 'Your reports' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });

  it('shows "this area needs an update", without a retry, for a remote built against another shared-ui', async () => {
    const refused = incompatibility(
      'reports',
      new Error(
        '[ Federation Runtime ]: Version 1.0.0 from host of shared singleton module @portal/shared-ui does not satisfy the requirement of reports which needs ^2.0.0)',
      ),
    );
    expect(refused).toMatchObject({
      remote: 'reports',
      sharedModule: '@portal/shared-ui',
      provided: '1.0.0',
      required: '^2.0.0',
    });
    const load = jest
      .fn<ReturnType<LoadRemoteRoutes>, Parameters<LoadRemoteRoutes>>()
      .mockRejectedValue(refused);
    renderApp({ server, route: '/report', loadRemote: load });

    expect(
      await screen.findByRole('heading', { name: 'This area needs an update' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    // The rest of the portal keeps working.
    expect(screen.getByRole('button', { name: 'Menu' })).toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith(
      'Remote reports needs an update: built for @portal/shared-ui ^2.0.0, this portal provides 1.0.0',
    );
  });

  it('treats other load failures as an outage, not as an incompatible build', () => {
    expect(incompatibility('reports', new Error('Loading chunk 42 failed.'))).toBeNull();
    expect(incompatibility('reports', undefined)).toBeNull();
  });
});
