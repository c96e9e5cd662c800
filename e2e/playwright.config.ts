import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';

// The whole stack, built, served as separate deployments (scripts/portal.mjs serve), on a fresh
// in-memory database. A second host on 8088 points its reports remote at a port the remote-down
// test starts and stops itself, and its launch links use the products' own protocols.
const CI = !!process.env.CI;
const ROOT = path.resolve(import.meta.dirname, '..');
export const HOST_URL = 'http://localhost:8080';
export const ALT_HOST_URL = 'http://localhost:8088';
export const ALT_REPORTS_PORT = 8092;

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: path.join(os.tmpdir(), 'portal-e2e-results'),
  use: {
    baseURL: HOST_URL,
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    { name: 'chromium', use: { ...devices['Desktop Chrome'] }, dependencies: ['setup'] },
  ],
  webServer: [
    {
      command: 'node scripts/portal.mjs serve',
      cwd: ROOT,
      url: `${HOST_URL}/healthz`,
      timeout: 120_000,
      reuseExistingServer: !CI,
      // PORTAL_TEST_MODE: the identity provider also trusts the second host (:8088) below.
      env: { PGLITE_DIR: 'memory://', LOG_LEVEL: 'warn', PORTAL_TEST_MODE: '1' },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: 'node host/server.mjs',
      cwd: ROOT,
      url: `${ALT_HOST_URL}/healthz`,
      timeout: 60_000,
      reuseExistingServer: !CI,
      env: {
        HOST_PORT: '8088',
        LOG_LEVEL: 'warn',
        REMOTE_REPORTS_URL: `http://localhost:${ALT_REPORTS_PORT}/remoteEntry.js`,
        // No browser simulator behind launch links: they use the product's own protocol, which
        // nothing on this machine handles — the "simulation not installed" path, for real.
        SIMULATOR_URL: '',
        LAUNCH_TIMEOUT_MS: '4000',
      },
    },
  ],
});
