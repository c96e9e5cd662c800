#!/usr/bin/env node
// Runs node:test files, each in a process of its own that prints TAP, instead of `node --test`.
//
// Why not `node --test`: node 20's runner reads each file's reports from the child's standard
// output, where they are framed binary messages between whatever else the file printed. When a
// read of that pipe ends inside the first six bytes of a message that follows printed text, its
// parser keeps the piece and never joins it to the rest; once the child has exited, it loops on it
// for ever at full CPU, and ignores SIGTERM (nodejs/node#62693; the fix, #62704, is not in the
// node 20.20.2 we run). Under load the pipe fills and reads end anywhere: in CI an identity file
// held the run until CI's 90-minute limit. Reproduced on node 20.20.2: a file that stops its
// reader, prints text up to 3 bytes short of the pipe's 64 KiB and lets it go on left `node --test`
// at full CPU for ten minutes, deaf to SIGTERM. A file run directly prints its TAP as text, which
// nothing parses but us, line by line.
//
//   node tools/testing/run-node-tests.mjs [--import tsx] [--concurrency N] [--limit-seconds S]
//     [--test-name-pattern=… and other --test-* flags] FILE|DIR …
//
// Every file has a time limit (default 300 s; alone they take seconds): a file that has not ended
// by then is stopped and fails with its name. Files run one at a time unless --concurrency says
// otherwise; the output of the first file still running streams, the others' follows in order.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TEST_FILE = /\.test\.(ts|mts|mjs|js)$/;
const SUMMARY_LINE = /^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/;
/** After SIGTERM, how long a stopped file may take to exit before SIGKILL. */
const KILL_AFTER_MS = 10_000;

/** Test files under the given files and folders (node_modules left out), sorted. */
export function findTestFiles(paths, cwd = process.cwd()) {
  const found = [];
  const visit = (target) => {
    const full = path.resolve(cwd, target);
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full, { withFileTypes: true })) {
        if (entry.name === 'node_modules') continue;
        if (entry.isDirectory() || TEST_FILE.test(entry.name)) visit(path.join(target, entry.name));
      }
    } else {
      found.push(target);
    }
  };
  for (const target of paths) visit(target);
  return [...new Set(found)].sort();
}

/**
 * Runs the files; resolves to what ended how. `nodeArgs` come before the file (e.g. `--import
 * tsx`); `out` receives everything printed, in file order, each file's under `label(file)`.
 */
export async function runNodeTests({
  files,
  nodeArgs = [],
  concurrency = 1,
  limitMs = 300_000,
  cwd = process.cwd(),
  env = process.env,
  out = process.stdout,
  label = (file) => file,
}) {
  const totals = Object.fromEntries(
    ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'].map((key) => [key, 0]),
  );
  const failed = [];
  const children = new Set();
  /** Jobs in start order; the first one writes through, the others keep their output. */
  const order = [];

  const flush = () => {
    while (order.length > 0) {
      const head = order[0];
      if (head.kept.length > 0) {
        out.write(head.kept.join(''));
        head.kept = [];
      }
      head.live = true;
      if (!head.done) return;
      order.shift();
    }
  };

  const runFile = (file) =>
    new Promise((resolve) => {
      const job = { kept: [], live: false, done: false, partial: '' };
      order.push(job);
      const print = (text) => {
        if (job.live) out.write(text);
        else job.kept.push(text);
      };
      const count = (text) => {
        const lines = (job.partial + text).split('\n');
        job.partial = lines.pop() ?? '';
        for (const line of lines) {
          const match = SUMMARY_LINE.exec(line);
          if (match) totals[match[1]] += Number(match[2]);
        }
      };
      print(`# ── ${label(file)}\n`);
      flush();
      const child = spawn(process.execPath, [...nodeArgs, '--test-reporter=tap', file], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let stoppedForTime = false;
      const limit = setTimeout(() => {
        stoppedForTime = true;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS).unref();
      }, limitMs);
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (text) => {
        count(text);
        print(text);
      });
      child.stderr.on('data', print);
      child.on('close', (code, signal) => {
        clearTimeout(limit);
        children.delete(child);
        if (stoppedForTime) {
          print(`# ${file} had not ended after ${limitMs / 1000} s: stopped\n`);
          failed.push({ file, reason: `had not ended after ${limitMs / 1000} s` });
        } else if (code !== 0) {
          failed.push({ file, reason: signal ? `ended by ${signal}` : `exit code ${code}` });
        }
        job.done = true;
        flush();
        resolve();
      });
    });

  const stopAll = (signal) => {
    for (const child of children) child.kill('SIGKILL');
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stopAll);
  process.once('SIGTERM', stopAll);

  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await runFile(file);
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, files.length)) }, worker),
  );

  process.off('SIGINT', stopAll);
  process.off('SIGTERM', stopAll);
  const summary = Object.entries(totals)
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
  out.write(`# all ${files.length} files: ${summary}\n`);
  for (const { file, reason } of failed) out.write(`# failed: ${label(file)} (${reason})\n`);
  return { totals, failed };
}

function parseArgs(argv) {
  const options = { nodeArgs: [], testArgs: [], concurrency: 1, limitMs: 300_000, paths: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--import') options.nodeArgs.push('--import', argv[++i]);
    else if (arg === '--concurrency') options.concurrency = Number(argv[++i]);
    else if (arg === '--limit-seconds') options.limitMs = Number(argv[++i]) * 1000;
    else if (arg.startsWith('--test-')) options.testArgs.push(arg);
    else if (arg === '--') {
      options.paths.push(...argv.slice(i + 1));
      break;
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.paths.push(arg);
  }
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new Error('--concurrency: a whole number from 1');
  }
  if (!(options.limitMs > 0)) throw new Error('--limit-seconds: a number above 0');
  return options;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`run-node-tests: ${error.message}`);
    process.exit(2);
  }
  const files = findTestFiles(options.paths.length > 0 ? options.paths : ['test']);
  if (files.length === 0) {
    console.error(`run-node-tests: no test files in ${options.paths.join(' ') || 'test'}`);
    process.exit(1);
  }
  const { failed } = await runNodeTests({
    files,
    nodeArgs: [...options.nodeArgs, ...options.testArgs],
    concurrency: options.concurrency,
    limitMs: options.limitMs,
  });
  process.exit(failed.length > 0 ? 1 : 0);
}
