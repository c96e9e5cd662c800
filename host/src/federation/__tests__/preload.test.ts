import { getRemoteEntry, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { preloadRemoteEntriesWhenIdle, preloadRemoteEntry, preloadRemoteRoutes } from '../preload';
import { registerPortalRemotes } from '../remotes';

jest.mock('@module-federation/enhanced/runtime', () => ({
  getInstance: jest.fn(() => ({ name: 'host' })),
  getRemoteInfo: jest.fn((remote: { name: string; entry: string }) => ({ ...remote, type: 'var' })),
  getRemoteEntry: jest.fn(),
  loadRemote: jest.fn(),
  registerPlugins: jest.fn(),
  registerRemotes: jest.fn(),
}));

const ENTRIES = {
  simulation: 'http://remotes.test/simulation/remoteEntry.js',
  reports: 'http://remotes.test/reports/remoteEntry.js',
  admin: 'http://remotes.test/admin/remoteEntry.js',
};

describe('preloading remotes', () => {
  beforeAll(() => registerPortalRemotes(ENTRIES));
  beforeEach(() => jest.mocked(getRemoteEntry).mockReset());

  it('loads a remote entry from the URL of the runtime config, and stays quiet when it fails', async () => {
    jest.mocked(getRemoteEntry).mockRejectedValueOnce(new Error('offline'));
    await expect(preloadRemoteEntry('reports')).resolves.toBeUndefined();
    expect(getRemoteEntry).toHaveBeenCalledWith({
      origin: { name: 'host' },
      remoteInfo: { name: 'reports', entry: ENTRIES.reports, type: 'var' },
    });
    expect(registerRemotes).toHaveBeenCalledTimes(1);
  });

  it('waits for the browser to be idle, and a cancelled preload fetches nothing', () => {
    const callbacks: IdleRequestCallback[] = [];
    window.requestIdleCallback = jest.fn((cb: IdleRequestCallback) => callbacks.push(cb));
    window.cancelIdleCallback = jest.fn((handle: number) => void callbacks.splice(handle - 1, 1));

    const cancel = preloadRemoteEntriesWhenIdle(['simulation', 'reports']);
    expect(getRemoteEntry).not.toHaveBeenCalled();
    callbacks[0]!({ didTimeout: false, timeRemaining: () => 50 });
    expect(jest.mocked(getRemoteEntry).mock.calls.map(([p]) => p.remoteInfo.name)).toEqual(['simulation', 'reports']);

    jest.mocked(getRemoteEntry).mockClear();
    preloadRemoteEntriesWhenIdle(['admin'])();
    expect(callbacks).toHaveLength(1);
    cancel();
    expect(callbacks).toHaveLength(0);
  });

  it('loads the route module on intent, and a failure is left for the area to show', async () => {
    jest.mocked(loadRemote).mockRejectedValueOnce(new Error('chunk failed'));
    expect(() => preloadRemoteRoutes('admin')).not.toThrow();
    await Promise.resolve();
    expect(loadRemote).toHaveBeenCalledWith('admin/routes');
  });
});
