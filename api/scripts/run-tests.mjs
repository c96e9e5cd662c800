#!/usr/bin/env node
// Runs test/**/*.test.ts, each file in its own process with its own database: a copy of one
// template migrated once per run (test/database/template.ts). API_TEST_CONCURRENCY files run at
// once (default 2: the suite is CPU-bound and CI has two cores).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function findTests(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests(path.join(root, 'test'))
  .map((f) => path.relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}

const concurrency = process.env.API_TEST_CONCURRENCY ?? '2';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
// PGlite writes its files on every commit: a RAM disk where there is one.
const runDir = mkdtempSync(
  path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'portal-api-run-'),
);
const template = onPostgres
  ? `test_template_${path.basename(runDir).replace(/\W/g, '_').toLowerCase()}`
  : path.join(runDir, 'template');
const env = {
  ...process.env,
  [onPostgres ? 'API_TEST_PG_TEMPLATE' : 'API_TEST_PGLITE_TEMPLATE']: template,
};

function prepareTemplate(command) {
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'test/database/prepare-template.ts', command, template],
    { cwd: root, stdio: 'inherit', env },
  );
  if (result.status !== 0) throw new Error(`test database template: ${command} failed`);
  if (command === 'prepare') {
    console.log(
      `# migrated test database template in ${Math.round(performance.now() - started)} ms`,
    );
  }
}

let status = 1;
try {
  prepareTemplate('prepare');
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...files],
    { cwd: root, stdio: 'inherit', env },
  );
  status = result.status ?? 1;
} finally {
  if (onPostgres) prepareTemplate('drop');
  rmSync(runDir, { recursive: true, force: true });
}
process.exit(status);
