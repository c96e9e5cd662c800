import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '../fixtures';

// Issue #11 point 3: a remote's strings are its own i18next namespace, served beside its
// remoteEntry.js, so they deploy with the remote. The second host (8088) loads its reports remote
// from port 8092; this test deploys a release of the built remote there, then a second release whose
// only change is a string, and the reloaded page shows the new string — the host neither rebuilt nor
// restarted.
const ROOT = path.resolve(import.meta.dirname, '../..');
const REPORTS_PORT = 8092;
const BUILT = path.join(ROOT, 'remote-reports', 'dist');

async function release(dir: string, edit?: (strings: Record<string, unknown>) => void): Promise<string> {
  const target = await mkdtemp(path.join(os.tmpdir(), `${dir}-`));
  await cp(BUILT, target, { recursive: true });
  if (edit) {
    const file = path.join(target, 'locales', 'en', 'reports.json');
    const strings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    edit(strings);
    await writeFile(file, JSON.stringify(strings));
  }
  return target;
}

async function deploy(root: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: path.join(ROOT, 'remote-reports'),
    env: { ...process.env, PORT: String(REPORTS_PORT), REMOTE_ROOT: root, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      if ((await fetch(`http://localhost:${REPORTS_PORT}/healthz`)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('reports remote did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function undeploy(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test.use({ baseURL: 'http://localhost:8088' });

test('a remote redeployed with a changed string shows it after a reload, with no host rebuild', async ({
  portal,
  page,
}) => {
  const first = await release('reports-release-1');
  const second = await release('reports-release-2', (strings) => {
    strings.yourReports = 'Your simulation reports';
  });
  let remote: ChildProcess | undefined;
  const loaded: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/locales/')) loaded.push(new URL(response.url()).href);
  });
  try {
    remote = await deploy(first);
    await portal.signInAt('/report', 'learner@demo.test');
    await portal.acceptCookiesIfAsked();
    await expect(page.getByRole('heading', { level: 1, name: 'Your reports' })).toBeVisible();
    // The strings came from the remote's origin, not from the host's merged file.
    expect(loaded).toContain(`http://localhost:${REPORTS_PORT}/locales/en/reports.json`);

    await undeploy(remote);
    remote = await deploy(second);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Your simulation reports' })).toBeVisible();
    // The host's own strings are unchanged and still there.
    await expect(page.getByRole('link', { name: 'Simulations', exact: true })).toBeVisible();
  } finally {
    await undeploy(remote);
    await rm(first, { recursive: true, force: true });
    await rm(second, { recursive: true, force: true });
  }
});
