#!/usr/bin/env node
// Runs test/**/*.test.ts, each file with its own database: a copy of one template migrated once
// per run (test/database/template.ts). Files share a process in groups (API_TEST_GROUPS, default
// 8), API_TEST_CONCURRENCY groups at once (default 2: the suite is CPU-bound and CI has two cores).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { findTestFiles, runNodeTests } from '../../tools/testing/run-node-tests.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const filters = process.argv.slice(2);
const files = findTestFiles(['test'], root).filter(
  (f) => filters.length === 0 || filters.some((x) => f.includes(x)),
);

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

/**
 * Files in a process of their own. The write-route fuzzer is the longest file (~40 s) and its runs
 * build on each other's writes; in a group it once failed its deep-linking routes in a way that
 * six runs alone and two grouped runs did not repeat, so it keeps the isolation it had.
 */
const RUN_ALONE = new Set(['test/security/fuzz-write-routes.test.ts']);

/**
 * Loading the app's few hundred modules through tsx's loader costs a process ~3 s of CPU, which
 * a process per file paid ~70 times. A group's files run one after another in one process; each
 * still builds its own app on its own database, and no test file sets process-wide state (env,
 * process listeners, mocked timers) — keep it so. Files go to the lightest group, largest first,
 * so the groups take about as long; a failure names its file as before.
 */
function groupFiles(count) {
  const alone = files.filter((file) => RUN_ALONE.has(file));
  const groups = Array.from(
    { length: Math.max(1, Math.min(count, files.length) - alone.length) },
    () => ({
      size: 0,
      files: [],
    }),
  );
  groups.push(...alone.map((file) => ({ size: Infinity, files: [file] })));
  const bySize = files
    .filter((file) => !RUN_ALONE.has(file))
    .map((file) => ({ file, size: statSync(path.join(root, file)).size }))
    .sort((a, b) => b.size - a.size);
  for (const { file, size } of bySize) {
    const lightest = groups.reduce((a, b) => (b.size < a.size ? b : a));
    lightest.size += size;
    lightest.files.push(file);
  }
  return groups.map((group, i) => {
    const entry = path.join(runDir, `group-${i + 1}.test.mjs`);
    const imports = group.files
      .sort()
      .map((f) => `import ${JSON.stringify(pathToFileURL(path.join(root, f)).href)};`);
    writeFileSync(entry, `${imports.join('\n')}\n`);
    return { path: entry, files: group.files };
  });
}

/**
 * A group that has not ended after 20 minutes (under CI's load one takes a few) is stopped and
 * fails with its files' names. Each group is a process printing TAP (tools/testing: node 20's own
 * `--test` runner could hang reading its children).
 */
const GROUP_LIMIT_MS = 1_200_000;

let status = 1;
try {
  prepareTemplate('prepare');
  const entries = groupFiles(Number(process.env.API_TEST_GROUPS ?? 8));
  const { failed } = await runNodeTests({
    files: entries.map((entry) => entry.path),
    nodeArgs: ['--import', 'tsx'],
    concurrency: Number(concurrency),
    limitMs: GROUP_LIMIT_MS,
    cwd: root,
    env,
    // A group's entry is a generated file: its files name it.
    label: (file) => {
      const group = entries.find((entry) => entry.path === file);
      return `${path.basename(file, '.test.mjs')}: ${group?.files.join(', ')}`;
    },
  });
  status = failed.length > 0 ? 1 : 0;
} finally {
  if (onPostgres) prepareTemplate('drop');
  rmSync(runDir, { recursive: true, force: true });
}
process.exit(status);
