#!/usr/bin/env node
// Bundle benchmark: builds the production front ends, starts the portal, and records in a real
// Chromium with a cold cache what a learner's first visit to /simulation downloads — per app
// (origin): JS requests, raw bytes and gzip bytes (gzip computed here at level 9, as a CDN would
// serve it, so the figure does not depend on the local server's compression).
// Targets (issue #11): each remoteEntry.js ≤ 6 kB gzip; host + shared singletons ≤ 175 kB gzip;
// first visit to /simulation (host + singletons + remote-simulation) ≤ 200 kB gzip. It also times,
// in the same Chromium, the switch from Simulations to Reports: cold (nothing preloaded) ≤ 200 ms
// and preloaded (entries on idle, routes on hover) ≤ 50 ms.
// Run with PORTAL_BRIGHTSPACE=0 (the package script sets it), as the e2e stack runs: the portal
// without a learning platform, so the figures compare with earlier runs.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { runPnpm } from '../../scripts/lib.mjs';
import { startServices, HOST_URL, PORTS } from '../../scripts/services.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOST_BUDGET = 175 * 1024;
const FIRST_VISIT_BUDGET = 200 * 1024;
const ENTRY_BUDGET = 6 * 1024;
const COLD_SWITCH_BUDGET_MS = 200;
const PRELOADED_SWITCH_BUDGET_MS = 50;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
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
  // Answer the cookie question once (stored per user), so no dialog sits over the sidebar.
  await page.getByRole('button', { name: 'Allow all' }).click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });

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
  const simulation = byApp.get('remote-simulation') ?? { jsGzip: 0 };
  const firstVisit = host.jsGzip + simulation.jsGzip;
  console.log('remoteEntry.js of each remote (production build):');
  const entries = ['remote-simulation', 'remote-reports', 'remote-admin'].map((app) => {
    const gzip = gzipSync(readFileSync(path.join(ROOT, app, 'dist/remoteEntry.js')), { level: 9 }).length;
    console.log(`  ${app.padEnd(20)} ${kB(gzip)} kB gzip  ${verdict(gzip <= ENTRY_BUDGET)} (≤ ${ENTRY_BUDGET / 1024} kB)`);
    return gzip;
  });
  console.log(`\n${verdict(entries.every((g) => g <= ENTRY_BUDGET))}  every remoteEntry.js ≤ ${ENTRY_BUDGET / 1024} kB gzip (largest ${(Math.max(...entries) / 1024).toFixed(1)} kB)`);
  console.log(`${verdict(host.jsGzip <= HOST_BUDGET)}  host + shared singletons ${(host.jsGzip / 1024).toFixed(1)} kB gzip (≤ ${HOST_BUDGET / 1024} kB)`);
  console.log(`${verdict(firstVisit <= FIRST_VISIT_BUDGET)}  first visit to /simulation ${(firstVisit / 1024).toFixed(1)} kB gzip (≤ ${FIRST_VISIT_BUDGET / 1024} kB)`);
  console.log(`time to the Simulations heading on loopback: ${elapsed} ms\n`);

  // Area switch: from Simulations to the Reports heading, median of five runs each.
  const switchTime = async ({ preload }) => {
    const times = [];
    for (let run = 0; run < 5; run += 1) {
      const ctx = await browser.newContext({ storageState: state });
      // Cold: the idle preload never runs and the click is the first sign of intent.
      if (!preload) await ctx.addInitScript(() => { window.requestIdleCallback = () => 0; });
      const p = await ctx.newPage();
      await p.goto(`${HOST_URL}/simulation`);
      await p.getByRole('heading', { name: 'Simulations' }).waitFor({ timeout: 60_000 });
      await p.waitForLoadState('networkidle');
      const link = p.getByRole('link', { name: 'Reports', exact: true });
      if (preload) {
        await link.hover();
        await p.waitForLoadState('networkidle');
        await p.waitForTimeout(200);
      }
      // Timed inside the page, from the click event to the heading's insertion, so Playwright's
      // own round trips are not counted.
      await p.evaluate(() => {
        document.addEventListener('click', () => { window.__switchStart = performance.now(); }, { capture: true, once: true });
        new MutationObserver((_, observer) => {
          const h1 = document.querySelector('main h1');
          if (window.__switchStart && h1?.textContent === 'Your reports') {
            window.__switchEnd = performance.now();
            observer.disconnect();
          }
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
      });
      await link.click();
      await p.getByRole('heading', { level: 1, name: 'Your reports' }).waitFor({ timeout: 30_000 });
      times.push(await p.evaluate(() => window.__switchEnd - window.__switchStart));
      await ctx.close();
    }
    times.sort((x, y) => x - y);
    return times[2];
  };
  const coldSwitch = await switchTime({ preload: false });
  const warmSwitch = await switchTime({ preload: true });
  console.log('Switch to Reports (click to heading, median of 5):');
  console.log(`${verdict(coldSwitch <= COLD_SWITCH_BUDGET_MS)}  cold ${coldSwitch.toFixed(0)} ms (≤ ${COLD_SWITCH_BUDGET_MS} ms)`);
  console.log(`${verdict(warmSwitch <= PRELOADED_SWITCH_BUDGET_MS)}  preloaded ${warmSwitch.toFixed(0)} ms (≤ ${PRELOADED_SWITCH_BUDGET_MS} ms)\n`);
  if (process.argv.includes('--list')) for (const r of visit) console.log(`${kB(r.gzip)} kB  ${r.url}`);
} finally {
  await browser.close();
  services.stop();
}
