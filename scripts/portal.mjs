#!/usr/bin/env node
// The portal's two set-up commands and their parts:
//   npm start  → install, build the front ends, start every service, print where to go
//   npm test   → install, run every package's tests (unit, component, API), build, run e2e
//   node scripts/portal.mjs serve → start the already built portal (the e2e web server uses it)
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, runPnpm } from './lib.mjs';
import {
  BRIGHTSPACE_ON,
  HOST_URL,
  LMS_URL,
  OUTBOX_URL,
  SEED_DEMO,
  startServices,
} from './services.mjs';
import { DEMO_ACCOUNTS, DEMO_BRIGHTSPACE_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts.mjs';

const FRONT_ENDS = ['host', 'remote-simulation', 'remote-reports', 'remote-admin'];

async function install() {
  await runPnpm(['install', '--frozen-lockfile', '--prefer-offline']);
}

async function buildFrontEnds() {
  // Remotes and host are separate deployments; built one after another to stay within 2 cores.
  for (const app of FRONT_ENDS) await runPnpm(['--filter', `./${app}`, 'build']);
}

async function serve({ banner }) {
  const services = await startServices();
  const shutdown = () => {
    services.stop();
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  if (banner) {
    const line = (a) =>
      `    ${a.email.padEnd(26)} ${a.role}${a.organisation ? ` (${a.organisation})` : ''}`;
    const accounts = DEMO_ACCOUNTS.map(line);
    console.log(
      [
        '',
        `  Simulation Portal is running: open ${HOST_URL}`,
        '',
        ...(SEED_DEMO === 'false'
          ? [
              '  No demo accounts (SEED_DEMO=false). Create the first administrator: npm run create-admin -- --email you@example.com',
            ]
          : [`  Demo accounts (password ${DEMO_PASSWORD}):`, ...accounts]),
        '',
        `  Learning platform stand-in: ${LMS_URL} — open the Demo course and click Launch Radiography`,
        '    (the same accounts, plus learner2@demo.test who exists only there)',
        '',
        ...(SEED_DEMO === 'false' || !BRIGHTSPACE_ON
          ? []
          : [
              '  Brightspace sign-in: Demo Brightspace College uses Brightspace (the stand-in plays it), so its',
              '  learner and educator sign in to it once after the portal, to link their accounts:',
              ...DEMO_BRIGHTSPACE_ACCOUNTS.map(line),
              '',
            ]),
        ...(OUTBOX_URL
          ? [
              `  Invitation mails (no SMTP_URL set) land in the outbox: ${OUTBOX_URL}`,
              `    as JSON: ${OUTBOX_URL}.json`,
              `  E-mail change confirmations and notices: ${HOST_URL}/api/dev/outbox.json`,
              '',
            ]
          : []),
        '  Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  }
  for (const child of services.children) {
    child.on('exit', (code) => {
      if (code !== 0 && code !== null) {
        console.error('A service stopped unexpectedly; stopping the portal.');
        shutdown();
      }
    });
  }
}

/** Runs one step of `npm test` and says how long it took, so a slow step shows in the log. */
async function timed(name, step) {
  const started = performance.now();
  await step();
  console.log(`npm test: ${name} took ${Math.round((performance.now() - started) / 1000)} s`);
}

/** Runs steps at the same time; once all have ended, fails with the first failure. */
async function sideBySide(...steps) {
  const results = await Promise.allSettled(steps.map((step) => step()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

async function test() {
  await timed('install', install);
  // Static checks first: they are the fastest to fail.
  await timed('types', () => runPnpm(['-r', '--workspace-concurrency=2', 'check-types']));
  await timed('lint', () => runPnpm(['lint']));
  // Unit, component and API tests of every package except e2e, in two streams side by side: the
  // API's suite, then the stand-ins whose tests run against it (lms, simulator); beside them every
  // other package, one after another, which alone would keep one core busy. Every test listens on
  // a free port and each API test file gets a database of its own, so nothing collides; --stream
  // names each line's package. Component tests wait on what they show, never on a fixed time
  // (jest's per-test limit is raised for a busy machine in jest.preset.cjs).
  const nextToApi = ['@portal/api', '@portal/lms', '@portal/simulator'];
  const stream = (filters) => runPnpm(['-r', '--stream', '--workspace-concurrency=1', ...filters, 'test']);
  await timed('package tests', () =>
    sideBySide(
      () => stream(nextToApi.flatMap((p) => ['--filter', p])),
      () => stream(['@portal/e2e', ...nextToApi].flatMap((p) => ['--filter', `!${p}`])),
    ),
  );
  await timed('front-end builds', buildFrontEnds);
  await timed('e2e', () => runPnpm(['--filter', '@portal/e2e', 'test']));
}

const command = process.argv[2];
try {
  switch (command) {
    case 'start':
      await install();
      await buildFrontEnds();
      await serve({ banner: true });
      break;
    case 'serve':
      for (const app of FRONT_ENDS) {
        if (!fs.existsSync(path.join(ROOT, app, 'dist')))
          throw new Error(`${app} is not built: run npm start or pnpm build first`);
      }
      await serve({ banner: true });
      break;
    case 'build':
      await buildFrontEnds();
      break;
    case 'test':
      await test();
      break;
    default:
      console.error('usage: node scripts/portal.mjs start|serve|build|test');
      process.exit(2);
  }
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
