#!/usr/bin/env node
// `npm run create-admin -- --email you@example.com [--first-name Ada] [--last-name Lovelace]`:
// the first global administrator of a new installation (identity account, portal user with the
// system administrator role, one-time set-password link). Runs api/scripts/create-admin.ts.
//
// With IDENTITY_ADMIN_URL set (a real Keycloak, or a bundled provider run elsewhere) it uses the
// environment as it is, the same variables as the API. Without it, it works on the local portal of
// `npm start`: its database and its bundled identity provider, which it starts for the moment
// when it is not running (stop the portal first: its embedded database takes one process only).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT, waitForHealthy } from './lib.mjs';
import { serviceDefinitions } from './services.mjs';

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const answers = (url) =>
  fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
    (res) => res.ok,
    () => false,
  );

const args = process.argv.slice(2);
const node = process.execPath;
const apiDir = path.join(ROOT, 'api');
let env = process.env;
let identity;

if (!process.env.IDENTITY_ADMIN_URL) {
  const services = serviceDefinitions();
  const identityService = services.find((service) => service.name === 'identity');
  const apiService = services.find((service) => service.name === 'api');
  // The API's settings as `npm start` gives them, with the identity provider's service secret.
  // The command seeds nothing but reference data, whatever SEED_DEMO says.
  env = { ...process.env, ...apiService.env, SEED_DEMO: 'false', SEED_DEMO_ACTIVITY: 'false' };
  if (await answers(identityService.health)) {
    if (!process.env.IDENTITY_SERVICE_CLIENT_SECRET) {
      console.error(
        'The portal is running: its identity provider has a service secret of its own (new at every start).\n' +
          'Stop the portal (Ctrl+C) and run this command again, or start both with the same IDENTITY_SERVICE_CLIENT_SECRET.',
      );
      process.exit(1);
    }
  } else {
    identity = spawn(identityService.command[0], identityService.command.slice(1), {
      cwd: identityService.cwd,
      env: { ...process.env, ...identityService.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitForHealthy(identityService.health, { name: 'identity', timeoutMs: 60_000 });
  }
}

let code = 1;
try {
  code = await run(node, ['--import', 'tsx', 'scripts/create-admin.ts', ...args], { cwd: apiDir, env });
} finally {
  if (identity && identity.exitCode === null) {
    const exited = new Promise((resolve) => identity.once('exit', resolve));
    identity.kill('SIGTERM');
    await exited;
  }
}
process.exit(code);
