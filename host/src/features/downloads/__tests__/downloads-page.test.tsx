import { screen, waitFor, within } from '@testing-library/react';
import type { DownloadGroup, FileDownload } from '@portal/contract';
import { setupTestServer } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { getInstallerFile, getUserDownloads } from '../../../testing/handlers';
import { USER_ID } from '../../../testing/fixtures';

const server = setupTestServer();
const route = `/user/${USER_ID}/downloads`;

const RADIOGRAPHY_FILE = '0b9c4c8e-5b7a-4a59-9d63-2f3f0e6b1a01';
const SIGNED: FileDownload = {
  url: `/api/v1/storage/sim-installation-file/${RADIOGRAPHY_FILE}?expires=1900000000&type=application%2Foctet-stream&name=RadiographySetup-2.4.1.exe&sig=abc`,
  originalName: 'RadiographySetup-2.4.1.exe',
};

/** The signed URL as the browser reads it, which is what the page hands over. */
const SIGNED_ABSOLUTE = new URL(SIGNED.url, window.location.origin).href;
const XSS = 'javascript:alert(document.domain)';

const GROUPS: DownloadGroup[] = [
  {
    id: 1,
    name: 'Radiography',
    downloads: [
      {
        id: 11,
        version: '2.4.1',
        operatingSystem: 'windows',
        fileId: RADIOGRAPHY_FILE,
        fileUrl: 'https://cdn.example/radiography-2.4.1.exe',
      },
      {
        id: 12,
        version: '2.4.0',
        operatingSystem: 'mac',
        fileId: null,
        fileUrl: 'https://cdn.example/radiography-2.4.0.dmg',
      },
    ],
  },
  { id: 2, name: 'Radiation Safety', downloads: [] },
];

const answerGroups = (groups: DownloadGroup[]) =>
  getUserDownloads(() => ({ status: 200, body: groups }));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Records the hidden <a download> clicks the page makes and cancels them: jsdom cannot navigate,
 * where a browser would hand the URL to its download manager.
 */
function captureFileSaves() {
  const saved: { href: string | null; download: string; attached: boolean }[] = [];
  const listener = (event: MouseEvent) => {
    const target = event.target;
    if (target instanceof HTMLAnchorElement && target.hasAttribute('download')) {
      saved.push({
        href: target.getAttribute('href'),
        download: target.download,
        attached: target.isConnected,
      });
      event.preventDefault();
    }
  };
  document.addEventListener('click', listener);
  return { saved, stop: () => document.removeEventListener('click', listener) };
}

let saves: ReturnType<typeof captureFileSaves>;
beforeEach(() => {
  saves = captureFileSaves();
});
afterEach(() => saves.stop());

describe('Downloads page', () => {
  it('lists each simulation with its installers: OS icon, OS label and a version link', async () => {
    server.use(answerGroups(GROUPS));
    renderApp({ server, route });

    const radiography = await screen.findByRole('region', { name: 'Radiography' });
    expect(screen.getByRole('heading', { level: 1, name: 'Downloads' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Downloads - Simulation Portal'));

    const items = within(radiography).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [windows, mac] = items as [HTMLElement, HTMLElement];
    expect(windows).toHaveTextContent('Windows');
    expect(windows.querySelector('svg[data-os-icon="windows"]')).toHaveAttribute(
      'aria-hidden',
      'true',
    );
    expect(within(windows).getByRole('link', { name: '2.4.1' })).toHaveAccessibleDescription(
      'Radiography Windows',
    );
    expect(mac).toHaveTextContent('macOS');
    expect(mac.querySelector('svg[data-os-icon="mac"]')).toHaveAttribute('aria-hidden', 'true');
    expect(within(mac).getByRole('link', { name: '2.4.0' })).toBeInTheDocument();
  });

  it('shows a loading skeleton until the downloads arrive', async () => {
    const gate = deferred();
    server.use(getUserDownloads(async () => (await gate.promise, { status: 200, body: GROUPS })));
    renderApp({ server, route });

    const skeleton = await screen.findByTestId('downloads-skeleton');
    expect(skeleton).toHaveRole('status');
    expect(within(skeleton).getByText('Loading...')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Downloads' })).toBeInTheDocument();

    gate.resolve();
    expect(await screen.findByRole('region', { name: 'Radiography' })).toBeInTheDocument();
    expect(screen.queryByTestId('downloads-skeleton')).not.toBeInTheDocument();
  });

  it('downloads a stored installer under its original name through a freshly signed URL', async () => {
    const gate = deferred();
    const requested: string[] = [];
    server.use(
      answerGroups(GROUPS),
      getInstallerFile(async (fileId) => {
        requested.push(fileId);
        await gate.promise;
        return { status: 200, body: SIGNED };
      }),
    );
    const { user } = renderApp({ server, route });

    const link = await screen.findByRole('link', { name: '2.4.1' });
    await user.click(link);

    await waitFor(() => expect(link).toHaveAttribute('aria-busy', 'true'));
    expect(within(link.closest('li')!).getByRole('status')).toHaveTextContent(
      'Preparing the download of version 2.4.1 for Windows',
    );
    // A second click while busy asks for nothing more.
    await user.click(link);
    gate.resolve();

    await waitFor(() =>
      expect(saves.saved).toEqual([
        { href: SIGNED_ABSOLUTE, download: SIGNED.originalName, attached: true },
      ]),
    );
    expect(requested).toEqual([RADIOGRAPHY_FILE]);
    await waitFor(() => expect(link).not.toHaveAttribute('aria-busy'));
    // The helper anchor is gone again; the page is where it was.
    expect(document.querySelectorAll('a[download]')).toHaveLength(0);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an error banner when the signed URL cannot be had, and clears it on a successful retry', async () => {
    let status = 500;
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      answerGroups(GROUPS),
      getInstallerFile(() =>
        status === 200 ? { status, body: SIGNED } : { status, body: { detail: 'Server error' } },
      ),
    );
    const { user } = renderApp({ server, route });

    await user.click(await screen.findByRole('link', { name: '2.4.1' }));

    const banner = await screen.findByRole('alert');
    expect(within(banner).getByRole('heading', { name: 'Download failed' })).toBeInTheDocument();
    expect(banner).toHaveTextContent('Version 2.4.1 could not be downloaded.');
    expect(saves.saved).toEqual([]);
    expect(screen.getByRole('link', { name: '2.4.1' })).not.toHaveAttribute('aria-busy');
    expect(spy).toHaveBeenCalledWith('Downloading the installer failed', expect.anything());

    status = 200;
    await user.click(screen.getByRole('link', { name: '2.4.1' }));
    await waitFor(() => expect(saves.saved).toHaveLength(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    spy.mockRestore();
  });

  it('treats a missing installer file (404) as a failed download, not a missing page', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
    server.use(
      answerGroups(GROUPS),
      getInstallerFile(() => ({ status: 404, body: { detail: 'Not found.' } })),
    );
    const { user } = renderApp({ server, route });

    await user.click(await screen.findByRole('link', { name: '2.4.1' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Download failed');
    expect(screen.getByRole('region', { name: 'Radiography' })).toBeInTheDocument();
    spy.mockRestore();
  });

  it('links a version without a stored file to its external URL in a new tab', async () => {
    server.use(answerGroups(GROUPS));
    renderApp({ server, route });

    const link = await screen.findByRole('link', { name: '2.4.0' });
    expect(link).toHaveAttribute('href', 'https://cdn.example/radiography-2.4.0.dmg');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')?.split(' ')).toContain('noopener');
    expect(link).toHaveAccessibleDescription('Radiography macOS Opens in a new tab');
  });

  describe('with stored URLs that are not https', () => {
    const hostile = (fileId: string | null, fileUrl: string): DownloadGroup[] => [
      {
        id: 1,
        name: 'Radiography',
        downloads: [{ id: 11, version: '2.4.1', operatingSystem: 'windows', fileId, fileUrl }],
      },
    ];

    it.each([
      ['javascript:', XSS],
      ['upper-case JavaScript: behind white space', ' JavaScript:alert(1)'],
      ['data:', 'data:text/html,<script>alert(1)</script>'],
      ['plain http', 'http://cdn.example/radiography-2.4.1.exe'],
    ])(
      'shows the version of an external download as text, not as a link, when its URL is %s',
      async (_name, fileUrl) => {
        server.use(answerGroups(hostile(null, fileUrl)));
        renderApp({ server, route });

        const radiography = await screen.findByRole('region', { name: 'Radiography' });
        expect(within(radiography).getByText('2.4.1')).toBeInTheDocument();
        expect(within(radiography).queryByRole('link')).not.toBeInTheDocument();
        expect(radiography.querySelectorAll('[href]')).toHaveLength(0);
      },
    );

    it('still downloads a stored installer whose declared URL is javascript:, through a button only', async () => {
      server.use(
        answerGroups(hostile(RADIOGRAPHY_FILE, XSS)),
        getInstallerFile(() => ({ status: 200, body: SIGNED })),
      );
      const { user } = renderApp({ server, route });

      const radiography = await screen.findByRole('region', { name: 'Radiography' });
      expect(radiography.querySelectorAll('[href]')).toHaveLength(0);
      const button = within(radiography).getByRole('button', { name: '2.4.1' });
      expect(button).toHaveAccessibleDescription('Radiography Windows');
      await user.click(button);

      await waitFor(() =>
        expect(saves.saved).toEqual([
          { href: SIGNED_ABSOLUTE, download: SIGNED.originalName, attached: true },
        ]),
      );
    });

    it.each([
      ['javascript:', XSS],
      ['another site over http', 'http://attacker.example/api/v1/storage/x?sig=abc'],
    ])(
      'refuses a signed URL the API answers as %s: the download fails and nothing is followed',
      async (_name, url) => {
        const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
        server.use(
          answerGroups(GROUPS),
          getInstallerFile(() => ({ status: 200, body: { ...SIGNED, url } })),
        );
        const { user } = renderApp({ server, route });

        await user.click(await screen.findByRole('link', { name: '2.4.1' }));

        expect(await screen.findByRole('alert')).toHaveTextContent(
          'Version 2.4.1 could not be downloaded.',
        );
        expect(saves.saved).toEqual([]);
        expect(spy).toHaveBeenCalledWith('Downloading the installer failed', expect.any(Error));
        spy.mockRestore();
      },
    );
  });

  it('says so when a simulation has no downloads', async () => {
    server.use(answerGroups(GROUPS));
    renderApp({ server, route });

    const safety = await screen.findByRole('region', { name: 'Radiation Safety' });
    expect(
      within(safety).getByText('No downloads are available for this simulation yet.'),
    ).toBeInTheDocument();
    expect(within(safety).queryByRole('link')).not.toBeInTheDocument();
  });

  it('shows a no-downloads heading when there is nothing at all', async () => {
    server.use(answerGroups([]));
    renderApp({ server, route });

    expect(
      await screen.findByRole('heading', { level: 2, name: 'No downloads available' }),
    ).toBeInTheDocument();
    expect(screen.getByText('There are no simulation installers for you yet.')).toBeInTheDocument();
  });

  it("answers page not found for another user's downloads, without asking the API", async () => {
    const asked: string[] = [];
    server.use(getUserDownloads((userId) => (asked.push(userId), { status: 200, body: GROUPS })));
    renderApp({ server, route: '/user/2d7e1a00-0000-4000-8000-000000000099/downloads' });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page not found - Simulation Portal'));
    expect(screen.queryByRole('heading', { name: 'Downloads' })).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });

  it('shows the data error view when the list fails to load', async () => {
    server.use(getUserDownloads(() => ({ status: 500, body: { detail: 'Server error' } })));
    renderApp({ server, route });

    expect(await screen.findByText(/contact your administrator/i)).toBeInTheDocument();
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('shows page not found with a refresh when the API refuses the list', async () => {
    server.use(
      getUserDownloads(() => ({ status: 403, body: { detail: 'You do not have permission.' } })),
    );
    renderApp({ server, route });

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });
});
