import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { test, expect } from '../fixtures';

// A second host (port 8088, started by the config) loads its reports remote from port 8092, which
// this test starts and stops itself: a real remote going down and coming back.
const ROOT = path.resolve(import.meta.dirname, '../..');
const REPORTS_PORT = 8092;

function startReportsRemote(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: path.join(ROOT, 'remote-reports'),
    env: { ...process.env, PORT: String(REPORTS_PORT), LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 20_000;
    const poll = async () => {
      try {
        if ((await fetch(`http://localhost:${REPORTS_PORT}/healthz`)).ok) return resolve(child);
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) return reject(new Error('reports remote did not start'));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

test.use({ baseURL: 'http://localhost:8088' });

test('a stopped remote shows a contained fallback, the rest keeps working, retry recovers', async ({
  portal,
  page,
}) => {
  await portal.signInAt('/report', 'learner@demo.test');
  await portal.acceptCookiesIfAsked();

  await expect(page.getByText('This area is unavailable right now.')).toBeVisible();
  // The shell and the other remotes keep working.
  await expect(portal.welcome('Lena', 'Learner')).toBeVisible();
  await page.getByRole('link', { name: 'Simulations' }).first().click();
  await expect(page.getByRole('heading', { name: 'Simulations' })).toBeVisible();

  // Back to the reports area in the same page: still contained.
  await page.getByRole('link', { name: 'Reports' }).first().click();
  await expect(page.getByText('This area is unavailable right now.')).toBeVisible();

  const remote = await startReportsRemote();
  try {
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Your reports' })).toBeVisible();
  } finally {
    remote.kill('SIGTERM');
  }
});
