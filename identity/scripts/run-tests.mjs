#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx, so tests need no build step.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const testDir = join(packageDir, 'test');

const entries = await readdir(testDir, { recursive: true, withFileTypes: true });
const files = entries
  .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
  .map((entry) => relative(packageDir, join(entry.parentPath ?? entry.path, entry.name)))
  .sort();

if (files.length === 0) {
  console.error(`No test files found under ${relative(process.cwd(), testDir) || testDir}`);
  process.exit(1);
}

const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...process.argv.slice(2), ...files], {
  cwd: packageDir,
  stdio: 'inherit',
});
child.on('error', (error) => {
  console.error(error);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
