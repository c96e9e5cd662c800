import { loadRemote, registerPlugins } from '@module-federation/enhanced/runtime';
import { IncompatibleRemoteError, loadRemoteRoutes, registerPortalRemotes } from '../remotes';

// The federation runtime is stood in for: what matters here is how it answers a refused remote,
// as the real one did in e2e/tests/remote-version.spec.ts — the first load reports the version
// refusal (plugin hook, then the error); every later load returns the half-run module it kept,
// with no default export and no error, until the remote is registered again with force.
jest.mock('@module-federation/enhanced/runtime', () => ({
  loadRemote: jest.fn(),
  registerPlugins: jest.fn(),
  registerRemotes: jest.fn(),
}));

type Plugin = { errorLoadRemote(args: { id: string; lifecycle: string; error: unknown }): unknown };

const REFUSAL = new Error(
  '[ Federation Runtime ]: Version 1.0.0 from host of shared singleton module @portal/shared-ui does not satisfy the requirement of reports which needs ^2.0.0)',
);

describe('loading a remote built for another shared-ui', () => {
  let plugin: Plugin;

  beforeAll(() => {
    registerPortalRemotes({
      simulation: 'http://remotes.test/simulation/remoteEntry.js',
      reports: 'http://remotes.test/reports/remoteEntry.js',
      admin: 'http://remotes.test/admin/remoteEntry.js',
    });
    const [plugins] = jest.mocked(registerPlugins).mock.calls[0]!;
    plugin = plugins?.[0] as unknown as Plugin;
  });

  it('stays refused when a preload met the refusal first and the click gets the kept module', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.mocked(loadRemote).mockImplementationOnce(async (id: string) => {
      plugin.errorLoadRemote({ id, lifecycle: 'onLoad', error: REFUSAL });
      throw REFUSAL;
    });
    jest.mocked(loadRemote).mockResolvedValue({});

    // Pointing at the link: the preload fails (and is quiet about it).
    await expect(loadRemoteRoutes('reports')).rejects.toBeInstanceOf(IncompatibleRemoteError);
    // The click, after it: the runtime hands back what it kept, without an error.
    const opened = loadRemoteRoutes('reports');
    await expect(opened).rejects.toBeInstanceOf(IncompatibleRemoteError);
    await expect(opened).rejects.toMatchObject({
      sharedModule: '@portal/shared-ui',
      required: '^2.0.0',
    });
  });

  it('forgets the refusal when the remote is loaded again with force', async () => {
    const routes = [{ path: 'reports' }];
    jest.mocked(loadRemote).mockResolvedValueOnce({ default: routes });
    await expect(loadRemoteRoutes('reports', 1)).resolves.toBe(routes);
  });
});
