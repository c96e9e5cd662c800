// The processes of a running portal (docs/architecture.md): each one as its own deployment would
// run, on its own port. Used by `npm start` and by the e2e suite's web server.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import REMOTES from '../contract/src/remotes.json' with { type: 'json' };
import { ROOT, waitForHealthy } from './lib.mjs';

const env = process.env;
export const PORTS = {
  host: Number(env.HOST_PORT ?? 8080),
  // A remote's default port is the one its manifest names (contract/src/remotes.json).
  simulation: Number(env.REMOTE_SIMULATION_PORT ?? REMOTES.simulation.devPort),
  reports: Number(env.REMOTE_REPORTS_PORT ?? REMOTES.reports.devPort),
  admin: Number(env.REMOTE_ADMIN_PORT ?? REMOTES.admin.devPort),
  api: Number(env.API_PORT ?? 3000),
  identity: Number(env.IDENTITY_PORT ?? 8180),
  simulator: Number(env.SIMULATOR_PORT ?? 8090),
  lms: Number(env.LMS_PORT ?? 8100),
};
const url = (port) => `http://localhost:${port}`;

export const HOST_URL = url(PORTS.host);
export const ISSUER = env.OIDC_ISSUER ?? `${url(PORTS.identity)}/realms/main`;
/**
 * The e2e suite's stack (PORTAL_TEST_MODE=1, set by e2e/playwright.config.ts): its second host on
 * :8088 must be able to sign in too. Nothing else trusts that origin.
 */
export const TEST_MODE = env.PORTAL_TEST_MODE === '1';
export const TEST_HOST_URL = 'http://localhost:8088';

/**
 * The identity provider's `portal-api` service client, through which the API creates users
 * (Keycloak Admin REST API, client credentials). A fresh random secret for each stack, known only
 * to these two processes; set IDENTITY_SERVICE_CLIENT_SECRET to choose one.
 */
const SERVICE_CLIENT_SECRET = env.IDENTITY_SERVICE_CLIENT_SECRET || randomBytes(32).toString('base64url');
export const IDENTITY_URL = url(PORTS.identity);
/**
 * A launch is a sign-in (issue #22 point 1): the identity provider brokers the API's OpenID
 * provider for launched users (`{portal}/api/lti/broker`) with this client secret, fresh for each
 * stack and known only to the two; set LTI_BROKER_CLIENT_SECRET to choose one.
 */
const LTI_BROKER_CLIENT_SECRET = env.LTI_BROKER_CLIENT_SECRET || randomBytes(32).toString('base64url');
/**
 * The learning-platform stand-in (lms/): an LTI 1.3 platform the API's demo seed registers, and the
 * Brightspace the API's OAuth client talks to. Its Brightspace client secret is, like the identity
 * service's, made fresh for each stack and known only to the API and the stand-in.
 */
// On the e2e stack it is addressed as 127.0.0.1, another site than the portal on localhost (as a
// real platform is): its embedded launch is then a third-party frame, where browsers that block
// third-party cookies do so (e2e/tests/lti-embedded.spec.ts).
export const LMS_URL = env.LMS_URL ?? (TEST_MODE ? `http://127.0.0.1:${PORTS.lms}` : url(PORTS.lms));
const BRIGHTSPACE_CLIENT_SECRET = env.BRIGHTSPACE_CLIENT_SECRET || randomBytes(32).toString('base64url');
/**
 * Brightspace sign-in for Demo Brightspace College (the demo organisation whose platform is
 * Brightspace): on for `npm start`. Off on the e2e stack unless PORTAL_BRIGHTSPACE=1: the other
 * specs were written against a portal without a learning platform (the layout snapshots show its
 * sidebar), and the specs that need Brightspace run in a pass of their own (e2e/package.json).
 */
export const BRIGHTSPACE_ON = (env.PORTAL_BRIGHTSPACE ?? (TEST_MODE ? '0' : '1')) === '1';
const BRIGHTSPACE_ENV = BRIGHTSPACE_ON
  ? {
      BRIGHTSPACE_HOST: LMS_URL,
      BRIGHTSPACE_AUTH_URL: `${LMS_URL}/d2l/oauth2/auth`,
      BRIGHTSPACE_TOKEN_URL: `${LMS_URL}/d2l/oauth2/token`,
      BRIGHTSPACE_CLIENT_ID: 'portal-brightspace',
      BRIGHTSPACE_CLIENT_SECRET,
    }
  : {};

/**
 * The demo organisations and accounts (known password) in the API and the identity provider: on
 * for `npm start` and the e2e stack unless SEED_DEMO=false; each service's own default is off.
 */
export const SEED_DEMO = env.SEED_DEMO ?? 'true';

/** Where the embedded default's invitation mails go instead of SMTP (unset SMTP_URL). */
export const OUTBOX_URL = env.SMTP_URL ? undefined : `${IDENTITY_URL}/dev/outbox`;

/**
 * The API's TRUST_PROXY: the host, which proxies /api from this machine and replaces whatever
 * X-Forwarded-For a client sends with the chain it believes itself, so the API trusts that one
 * hop and, through it, the proxies the host trusts (the host's TRUST_PROXY: a hop count one more,
 * a list with the host's own addresses added). Not `loopback`: a client on 127.0.0.2 calling the
 * API directly could otherwise name its own address.
 */
export function apiTrustProxy(hostTrustProxy = '') {
  const host = '127.0.0.1,::1';
  const value = hostTrustProxy.trim();
  if (value === '' || value === '0') return host;
  return /^\d+$/.test(value) ? String(Number(value) + 1) : `${host},${value}`;
}

/** @returns {{name: string, cwd: string, command: string[], env: Record<string,string>, health: string}[]} */
export function serviceDefinitions() {
  const node = process.execPath;
  const remote = (name, folder, port) => ({
    name,
    cwd: path.join(ROOT, folder),
    command: [node, 'server.mjs'],
    env: { PORT: String(port) },
    health: `${url(port)}/healthz`,
  });
  return [
    {
      name: 'identity',
      cwd: path.join(ROOT, 'identity'),
      command: [node, '--import', 'tsx', 'src/server.ts'],
      env: {
        IDENTITY_PORT: String(PORTS.identity),
        IDENTITY_ISSUER: ISSUER,
        FRONTEND_ORIGINS: env.FRONTEND_ORIGINS ?? (TEST_MODE ? `${HOST_URL},${TEST_HOST_URL}` : HOST_URL),
        IDENTITY_SERVICE_CLIENT_SECRET: SERVICE_CLIENT_SECRET,
        // The API's launch sign-in broker, through the host's /api (its issuer is the portal's).
        LTI_BROKER_URL: `${HOST_URL}/api/lti/broker`,
        LTI_BROKER_CLIENT_SECRET,
        // `npm start` and the e2e stack are development: without SMTP_URL, mails go to /dev/outbox.
        IDENTITY_DEV_MODE: 'true',
        SEED_DEMO,
        // The test stack's database is in memory (PGLITE_DIR=memory://), so its users are too:
        // accounts left by an earlier run would collide with the same e-mails in a fresh database.
        ...(TEST_MODE && env.IDENTITY_DATA_DIR === undefined ? { IDENTITY_DATA_DIR: '' } : {}),
      },
      health: `${url(PORTS.identity)}/healthz`,
    },
    {
      name: 'api',
      cwd: path.join(ROOT, 'api'),
      // API_NODE_FLAGS of api/src/node-flags.ts (how the heap is sized: why there).
      command: [node, '--max-semi-space-size=64', '--heap-growing-percent=100', '--import', 'tsx', 'src/server.ts'],
      env: {
        API_PORT: String(PORTS.api),
        OIDC_ISSUER: ISSUER,
        // The demo accounts of the README (and of the e2e suite); the API's own default is off.
        SEED_DEMO,
        // Once, on the first start: 56 more learners, a licence expiring within 30 days and ~300
        // reports with images over the last 90 days. Not on the e2e stack, whose specs count on
        // the few reports of the demo accounts.
        SEED_DEMO_ACTIVITY: env.SEED_DEMO_ACTIVITY ?? (TEST_MODE ? 'false' : 'true'),
        // Exactly the host's hop (its /api proxy, on this machine), plus whatever proxies the host
        // itself is told to trust; API_TRUST_PROXY overrides.
        TRUST_PROXY: env.API_TRUST_PROXY ?? apiTrustProxy(env.TRUST_PROXY),
        // Users are created in the identity provider through its admin API, as in Keycloak.
        IDENTITY_ADMIN_URL: env.IDENTITY_ADMIN_URL ?? IDENTITY_URL,
        IDENTITY_ADMIN_CLIENT_ID: env.IDENTITY_ADMIN_CLIENT_ID ?? 'portal-api',
        IDENTITY_ADMIN_CLIENT_SECRET: SERVICE_CLIENT_SECRET,
        // Invitations return here; the identity provider accepts only its registered portal origins.
        PORTAL_URL: HOST_URL,
        // A launch signs the launched user in through the identity provider (same secret there).
        LTI_BROKER_CLIENT_SECRET,
        // The API's own mails (e-mail change confirmations): without SMTP_URL they are listed at
        // /api/dev/outbox.json, as the identity provider's are at /dev/outbox.
        MAIL_DEV_OUTBOX: env.SMTP_URL ? 'false' : 'true',
        // The demo seed registers the stand-in as an LTI platform at this address.
        LMS_URL,
        ...BRIGHTSPACE_ENV,
      },
      // Readiness: migrated, database answering, not draining (docs/deploy.md, "Health and metrics").
      health: `${url(PORTS.api)}/readyz`,
    },
    {
      name: 'simulator',
      cwd: path.join(ROOT, 'simulator'),
      command: [node, '--import', 'tsx', 'src/server.ts'],
      env: { SIMULATOR_PORT: String(PORTS.simulator), API_URL: url(PORTS.api) },
      health: `${url(PORTS.simulator)}/healthz`,
    },
    {
      name: 'lms',
      cwd: path.join(ROOT, 'lms'),
      command: [node, '--import', 'tsx', 'src/server.ts'],
      env: {
        LMS_PORT: String(PORTS.lms),
        LMS_URL,
        // The browser's portal: the tool's login initiation and launch are under its /api.
        PORTAL_URL: HOST_URL,
        // Server to server, the tool's keys come from the API itself (no need for the host to be up).
        LMS_TOOL_JWKS_URL: `${url(PORTS.api)}/api/lti/jwks`,
        // The embedded launch's frame passes through the identity provider (the brokered sign-in).
        LMS_FRAME_ORIGINS: env.LMS_FRAME_ORIGINS ?? IDENTITY_URL,
        BRIGHTSPACE_CLIENT_ID: 'portal-brightspace',
        BRIGHTSPACE_CLIENT_SECRET,
        // The e2e specs read the received scores and switch outages.
        LMS_TEST_ENDPOINTS: TEST_MODE ? '1' : '0',
        // Its course and key are kept in lms/.data like the API's database in api/.data; the test
        // stack's database is in memory, so the stand-in's course is too.
        ...(TEST_MODE && env.LMS_DATA_DIR === undefined ? { LMS_DATA_DIR: 'memory://' } : {}),
      },
      health: `${url(PORTS.lms)}/healthz`,
    },
    remote('remote-simulation', 'remote-simulation', PORTS.simulation),
    remote('remote-reports', 'remote-reports', PORTS.reports),
    remote('remote-admin', 'remote-admin', PORTS.admin),
    {
      name: 'host',
      cwd: path.join(ROOT, 'host'),
      command: [node, 'server.mjs'],
      env: {
        HOST_PORT: String(PORTS.host),
        API_URL: url(PORTS.api),
        OIDC_ISSUER: ISSUER,
        REMOTE_SIMULATION_URL: env.REMOTE_SIMULATION_URL ?? `${url(PORTS.simulation)}/remoteEntry.js`,
        REMOTE_REPORTS_URL: env.REMOTE_REPORTS_URL ?? `${url(PORTS.reports)}/remoteEntry.js`,
        REMOTE_ADMIN_URL: env.REMOTE_ADMIN_URL ?? `${url(PORTS.admin)}/remoteEntry.js`,
        // Self-assessment and the LTI logout link to the learning platform.
        ...(BRIGHTSPACE_ON ? { BRIGHTSPACE_HOST: LMS_URL } : {}),
      },
      health: `${url(PORTS.host)}/healthz`,
    },
  ];
}

/**
 * How the services' JSON log lines are printed: `pretty` (one readable line each, pino-pretty)
 * or `json` (as written, e.g. to pipe into jq). Each service writes JSON whatever this says.
 */
export const LOG_FORMAT = env.LOG_FORMAT === 'json' ? 'json' : 'pretty';

/**
 * Starts every service, prefixing their log lines with the service name, and resolves once all
 * answer /healthz. The host starts last, so that its health check (what the e2e suite and a
 * load balancer watch) means the whole portal is ready. The returned stop() ends them all.
 */
export async function startServices({ quiet = false, format = LOG_FORMAT } = {}) {
  // Imported here, not at the top: `npm start` and `npm test` load this file before they install
  // the dependencies (pino-pretty among them) on a fresh clone.
  const toText =
    format === 'pretty'
      ? (await import('../tools/service-kit/pretty.mjs')).prettyLogLine({ colorize: Boolean(process.stdout.isTTY) })
      : (line) => line;
  const children = [];
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  const launch = (service) => {
    const [cmd, ...args] = service.command;
    const child = spawn(cmd, args, {
      cwd: service.cwd,
      env: { ...process.env, ...service.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const prefix = `[${service.name}] `;
    // Whole lines, however the pipe splits them, so a JSON line is never cut in two.
    const forward = (stream, out) =>
      readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        if (quiet || !line) return;
        for (const part of toText(line).split('\n')) out.write(prefix + part + '\n');
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGTERM') process.stderr.write(`${prefix}exited with ${code ?? signal}\n`);
    });
    return waitForHealthy(service.health, { name: service.name, timeoutMs: 90_000 });
  };
  const services = serviceDefinitions();
  try {
    await Promise.all(services.filter((s) => s.name !== 'host').map(launch));
    await launch(services.find((s) => s.name === 'host'));
  } catch (error) {
    stop();
    throw error;
  }
  return { stop, children };
}
