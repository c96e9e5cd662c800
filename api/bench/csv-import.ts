/**
 * Bulk CSV import benchmark (issue #8): uploads a users CSV of --rows rows (10 000 by default) and
 * adds it to a licence through the real API (app.inject), timing the upload and the bulk add. The
 * identity provisioning happens after the commit, in the outbox worker: --provision N users
 * (default 200) are first added and provisioned against the bundled identity provider started in
 * process, and the worker's time is printed too (0 skips that part).
 *
 *   pnpm --filter @portal/api bench:csv                                   # PGlite (in memory)
 *   TEST_DATABASE_URL=postgres://… pnpm --filter @portal/api bench:csv    # PostgreSQL
 *   … bench:csv -- --rows 10000 --provision 200
 *
 * On PostgreSQL it works in a schema of its own, dropped at the end. Exits 1 when the import
 * fails or takes longer than 10 s.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';
import { startIdentityApp } from '@portal/identity/src/app';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Db } from '../src/db/driver';
import { createPgDb } from '../src/db/pg-driver';
import { createPgliteDb } from '../src/db/pglite-driver';
import { createKeycloakIdentityAdmin } from '../src/identity/identity-admin';
import { identityAccountKinds } from '../src/identity/account-handlers';
import { createOutboxRegistry } from '../src/outbox/handler-registry';
import { createOutboxWorker } from '../src/outbox/outbox-worker';
import { BenchIdentity } from './lib/identity';
import { multipartBody } from './lib/multipart';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000' },
    provision: { type: 'string', default: '200' },
  },
});
const rows = Number(values.rows);
const provisionCount = Number(values.provision);
const LIMIT_MS = 10_000;
const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

async function open(): Promise<{ db: Db; label: string; close(): Promise<void> }> {
  if (!url) {
    return {
      db: await createPgliteDb('memory://'),
      label: 'PGlite (in memory)',
      close: async () => undefined,
    };
  }
  const schema = `bench_csv_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const db = createPgDb({ connectionString: url, searchPath: schema, max: 4 });
  return {
    db,
    label: `PostgreSQL (schema ${schema})`,
    async close() {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

const target = await open();
const jwt = await BenchIdentity.start();
const app = await buildApp({
  config: {
    ...loadConfig({
      PGLITE_DIR: 'memory://',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'true',
      RATE_LIMIT_ENABLED: 'false',
      OUTBOX_POLL_SECONDS: '0',
    }),
    oidcIssuer: jwt.issuer,
  },
  db: target.db,
  logger: false,
});
await app.ready();

const orgAdmin = DEMO_ACCOUNTS.find(
  (a) => a.role === 'org admin' && a.organisation === 'Demo Hospital',
)!;
const headers = {
  authorization: `Bearer ${await jwt.token(orgAdmin.sub, orgAdmin.email, 3600)}`,
  cookie: 'XSRF-TOKEN=bench',
  'x-xsrf-token': 'bench',
};
const one = async <T>(sql: string, params: unknown[] = []) =>
  (await target.db.query<T & Record<string, unknown>>(sql, params)).rows[0]!;
const demo = (
  await one<{ id: number }>(`select id from organisations where name = 'Demo Hospital'`)
).id;
const learnerRole = (await one<{ id: number }>(`select id from roles where name = 'learner'`)).id;

async function license(seats: number): Promise<number> {
  return (
    await one<{ id: number }>(
      `insert into license_blocks (organisation_id, license_name, number_of_seats, start_date,
                                   expiry_date, duration_id)
       values ($1, $2, $3, current_date, current_date + 364,
               (select id from lookups where field = 'license_duration' and code = 'P1Y'))
       returning id`,
      [demo, `Bench ${randomBytes(4).toString('hex')}`, seats],
    )
  ).id;
}

function csv(n: number, prefix: string): Buffer {
  const lines = ['firstName;lastName;email'];
  for (let i = 0; i < n; i++) lines.push(`First${i};"Last, ${i}";${prefix}.${i}@bench.test`);
  return Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`);
}

/** Upload + bulk add through the API; answers the times in ms. */
async function importCsv(n: number, prefix: string) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename: `${prefix}.csv`, contentType: 'text/csv', data: csv(n, prefix) },
  ]);
  const licenseId = await license(n);
  const t0 = performance.now();
  const up = await app.inject({
    method: 'POST',
    url: '/api/v1/file/upload/user',
    headers: { ...headers, 'content-type': contentType },
    payload: body,
  });
  const t1 = performance.now();
  if (up.statusCode !== 201) throw new Error(`upload: ${up.statusCode} ${up.body.slice(0, 300)}`);
  const add = await app.inject({
    method: 'POST',
    url: '/api/v1/user',
    headers,
    payload: { file: up.json<{ id: string }>().id, license: licenseId, role: learnerRole },
  });
  const t2 = performance.now();
  if (add.statusCode !== 201)
    throw new Error(`bulk add: ${add.statusCode} ${add.body.slice(0, 300)}`);
  return { uploadMs: t1 - t0, addMs: t2 - t1, bytes: body.length };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
let failed = false;
console.log(`CSV import benchmark on ${target.label}`);
try {
  if (provisionCount > 0) {
    const secret = randomBytes(32).toString('hex');
    const identity = await startIdentityApp({
      dataDir: null,
      serviceClientSecret: secret,
      devMode: true,
    });
    try {
      await importCsv(provisionCount, 'provision');
      const log = { info: () => undefined, warn: () => undefined, error: console.error };
      const registry = createOutboxRegistry();
      registry.register(
        identityAccountKinds({
          db: target.db,
          identityAdmin: createKeycloakIdentityAdmin(
            { baseUrl: identity.url, realm: 'main', clientId: 'portal-api', clientSecret: secret },
            { invitationClientId: 'frontend', portalUrl: 'http://localhost:8080' },
          ),
          log,
        }),
      );
      const worker = createOutboxWorker({ db: target.db, registry, log });
      const t0 = performance.now();
      const result = await worker.drain();
      const ms = performance.now() - t0;
      const mails = ((await (await fetch(`${identity.url}/dev/outbox.json`)).json()) as unknown[])
        .length;
      console.log(
        `provisioning ${provisionCount} accounts (bundled identity provider, in process): ` +
          `${fmt(ms)}, ${result.done} done, ${result.failed} failed, ${mails} invitations`,
      );
      if (result.done !== provisionCount || mails !== provisionCount) failed = true;
    } finally {
      await identity.close();
    }
  }
  const { uploadMs, addMs, bytes } = await importCsv(rows, 'import');
  const total = uploadMs + addMs;
  console.log(`upload ${rows} rows (${(bytes / 1024).toFixed(0)} KB): ${fmt(uploadMs)}`);
  console.log(
    `bulk add ${rows} rows (users, seats, outbox, audit; one transaction): ${fmt(addMs)}`,
  );
  console.log(
    `import total: ${fmt(total)} (target ≤ ${fmt(LIMIT_MS)}) ${total <= LIMIT_MS ? 'PASS' : 'MISS'}`,
  );
  if (total > LIMIT_MS) failed = true;
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await app.close();
  await jwt.close();
  await target.close();
}
process.exit(failed ? 1 : 0);
