#!/usr/bin/env node
// Bundle benchmark: builds the production front ends, starts the portal, and records in a real
// Chromium with a cold cache what a learner's first visit to /simulation downloads — per app
// (origin): JS requests, raw bytes and gzip bytes (gzip computed here at level 9, as a CDN would
// serve it, so the figure does not depend on the local server's compression).
// Target (issue #2): host + shared singletons ≤ 150 kB gzip before any remote chunk.
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { runPnpm } from '../../scripts/lib.mjs';
import { startServices, HOST_URL, PORTS } from '../../scripts/services.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUDGET_GZIP = 150 * 1024;
const skipBuild = process.argv.includes('--no-build');

const appOf = (url) => {
  const { port } = new URL(url);
  const names = {
    [PORTS.host]: 'host (+ shared singletons)',
    [PORTS.simulation]: 'remote-simulation',
    [PORTS.reports]: 'remote-reports',
    [PORTS.admin]: 'remote-admin',
    [PORTS.identity]: 'identity (sign-in page)',
    [PORTS.api]: 'api',
  };
  return names[Number(port)] ?? url;
};

if (!skipBuild) {
  for (const app of ['host', 'remote-simulation', 'remote-reports', 'remote-admin']) {
    await runPnpm(['--filter', `./${app}`, 'build'], { cwd: ROOT });
  }
}

process.env.PGLITE_DIR = 'memory://';
process.env.LOG_LEVEL = 'warn';
const services = await startServices({ quiet: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
try {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Sign in first (the identity provider's page is not the portal's download), then measure the
  // portal's first visit with a cold HTTP cache but a live session.
  await page.goto(`${HOST_URL}/simulation`);
  await page.getByLabel('Email').fill('learner@demo.test');
  await page.getByLabel('Password').fill('demo1234');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Simulations' }).waitFor({ timeout: 60_000 });

  // The measured visit: a fresh page in a context that shares only the stored session.
  const state = await context.storageState();
  const cold = await browser.newContext({ storageState: state });
  const coldPage = await cold.newPage();
  const visit = [];
  const started = Date.now();
  coldPage.on('response', async (response) => {
    try {
      const body = await response.body();
      visit.push({ url: response.url(), type: response.request().resourceType(), raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    } catch {
      visit.push({ url: response.url(), type: response.request().resourceType(), raw: 0, gzip: 0 });
    }
  });
  await coldPage.goto(`${HOST_URL}/simulation`);
  await coldPage.getByRole('heading', { name: 'Simulations' }).waitFor({ timeout: 60_000 });
  await coldPage.waitForLoadState('networkidle');
  const elapsed = Date.now() - started;

  const byApp = new Map();
  for (const r of visit) {
    const app = appOf(r.url);
    const row = byApp.get(app) ?? { requests: 0, jsRequests: 0, jsRaw: 0, jsGzip: 0 };
    row.requests += 1;
    if (r.type === 'script' || r.url.endsWith('.js')) {
      row.jsRequests += 1;
      row.jsRaw += r.raw;
      row.jsGzip += r.gzip;
    }
    byApp.set(app, row);
  }
  const kB = (n) => (n / 1024).toFixed(1).padStart(8);
  console.log('\nFirst visit to /simulation (signed in, cold HTTP cache)\n');
  console.log(`${'app'.padEnd(30)} ${'requests'.padStart(8)} ${'js reqs'.padStart(8)} ${'js raw kB'.padStart(10)} ${'js gzip kB'.padStart(10)}`);
  let total = { requests: 0, jsRequests: 0, jsRaw: 0, jsGzip: 0 };
  for (const [app, row] of [...byApp].sort()) {
    console.log(`${app.padEnd(30)} ${String(row.requests).padStart(8)} ${String(row.jsRequests).padStart(8)} ${kB(row.jsRaw)}   ${kB(row.jsGzip)}`);
    total = { requests: total.requests + row.requests, jsRequests: total.jsRequests + row.jsRequests, jsRaw: total.jsRaw + row.jsRaw, jsGzip: total.jsGzip + row.jsGzip };
  }
  console.log(`${'total'.padEnd(30)} ${String(total.requests).padStart(8)} ${String(total.jsRequests).padStart(8)} ${kB(total.jsRaw)}   ${kB(total.jsGzip)}`);
  const host = byApp.get('host (+ shared singletons)') ?? { jsGzip: 0 };
  console.log(`\nhost + shared singletons before any remote chunk: ${(host.jsGzip / 1024).toFixed(1)} kB gzip (budget ${BUDGET_GZIP / 1024} kB): ${host.jsGzip <= BUDGET_GZIP ? 'within budget' : 'OVER BUDGET'}`);
  console.log(`time to the Simulations heading on loopback: ${elapsed} ms\n`);
  if (process.argv.includes('--list')) for (const r of visit) console.log(`${kB(r.gzip)} kB  ${r.url}`);
} finally {
  await browser.close();
  services.stop();
}
