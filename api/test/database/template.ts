/**
 * One migrated database per test run, cloned for every test file. Migrating a fresh database
 * (19 files) and, for PGlite, starting a fresh in-memory cluster cost about 9 s per file; a clone
 * is a directory copy on a RAM disk (PGlite) or `CREATE DATABASE … TEMPLATE` (PostgreSQL).
 *
 * scripts/run-tests.mjs prepares the template once (prepare-template.ts) and names it in the
 * environment; a test file started on its own prepares a private one on first use.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Db } from '../../src/db/driver';
import { migrate } from '../../src/db/migrate';
import { createPgDb } from '../../src/db/pg-driver';
import { createPgliteDb } from '../../src/db/pglite-driver';

/** The migrated PGlite data directory to copy. */
export const PGLITE_TEMPLATE_ENV = 'API_TEST_PGLITE_TEMPLATE';
/** The migrated PostgreSQL database to copy (with TEST_DATABASE_URL). */
export const PG_TEMPLATE_ENV = 'API_TEST_PG_TEMPLATE';

export interface TestDatabase {
  db: Db;
  /** PostgreSQL: the database's URL, for a second pool on it (a second API instance). */
  url?: string;
  /** Drops what the database was created in (no-op for in-memory PGlite). */
  dispose(): Promise<void>;
  /** Where a server process opens it (a migrated copy): DATABASE_URL or PGLITE_DIR. */
  env?: { DATABASE_URL: string } | { PGLITE_DIR: string };
}

/** A RAM disk where there is one: PGlite writes its files on every commit. */
export function scratchRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** `url` with another database name. */
export function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Migrates a new PGlite data directory at `dir` and closes it, ready to be copied. */
export async function preparePgliteTemplate(dir: string): Promise<void> {
  const db = await createPgliteDb(dir);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

/** Creates and migrates database `name` next to the one `url` names; no connection stays open. */
export async function preparePgTemplate(url: string, name: string): Promise<void> {
  await withClient(url, (client) => client.query(`create database ${name}`));
  const db = createPgDb({ connectionString: databaseUrl(url, name), max: 1 });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

export async function dropPgDatabase(url: string, name: string): Promise<void> {
  await withClient(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}

let privateTemplate: Promise<{ env: string; name: string }> | undefined;

/** The template this process clones: the run's, or one made here once (test file run alone). */
function template(env: string): Promise<string> {
  const given = process.env[env];
  if (given) return Promise.resolve(given);
  privateTemplate ??= (async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      const name = uniqueName('test_template');
      await preparePgTemplate(url, name);
      process.once('beforeExit', () => void dropPgDatabase(url, name).catch(() => undefined));
      return { env: PG_TEMPLATE_ENV, name };
    }
    const dir = mkdtempSync(path.join(scratchRoot(), 'portal-api-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await preparePgliteTemplate(path.join(dir, 'data'));
    return { env: PGLITE_TEMPLATE_ENV, name: path.join(dir, 'data') };
  })();
  return privateTemplate.then((t) => t.name);
}

/** PostgreSQL refuses a copy while another copy of the same template is being made; retry then. */
async function createDatabaseFrom(url: string, name: string, templateName: string) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await withClient(url, (client) =>
        client.query(`create database ${name} template ${templateName}`),
      );
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === '55006';
      if (!busy || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * A fresh database with every migration applied: a copy of the run's template, so no test sees
 * another's rows.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const templateName = await template(PG_TEMPLATE_ENV);
    const name = uniqueName('test');
    await createDatabaseFrom(url, name, templateName);
    return {
      db: createPgDb({ connectionString: databaseUrl(url, name), max: 4 }),
      url: databaseUrl(url, name),
      dispose: () => dropPgDatabase(url, name),
      env: { DATABASE_URL: databaseUrl(url, name) },
    };
  }
  const templateDir = await template(PGLITE_TEMPLATE_ENV);
  const dir = path.join(path.dirname(templateDir), uniqueName('clone'));
  await cp(templateDir, dir, { recursive: true });
  return {
    db: await createPgliteDb(dir),
    dispose: () => rm(dir, { recursive: true, force: true }),
    env: { PGLITE_DIR: dir },
  };
}
