import { screen } from '@testing-library/react';
import { RemoteArea, type LoadRemoteRoutes } from '../remote-area';
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
    const load: LoadRemoteRoutes = async () => [{ path: 'learner', element: <h1>Learner reports</h1> }];
    renderApp({ server, route: '/report/learner', loadRemote: load });

    expect(await screen.findByRole('heading', { name: 'Learner reports' })).toBeInTheDocument();
  });

  it('renders a route tree loaded before at once, without a loading step or a second load', () => {
    const load = jest.fn<ReturnType<LoadRemoteRoutes>, Parameters<LoadRemoteRoutes>>(() => new Promise(() => undefined));
    const preloaded = [{ index: true, element: <h1>Your reports</h1> }];
    renderApp({ server, route: '/report', routes: [{ path: '/report/*', element: <RemoteArea name="reports" load={load} loaded={() => preloaded} /> }] });

    // Synchronously: no spinner frame between the click and the page.
    expect(screen.getByRole('heading', { name: 'Your reports' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(load).not.toHaveBeenCalled();
  });
});
