import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const API_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** SCHED_OTHER and SCHED_BATCH, as /proc/<pid>/stat's `policy` gives them. */
const OTHER = 0;
const BATCH = 3;

/**
 * A bench-like process: arranges the scheduling (plain or not), starts a server through
 * processes.ts as the bench does, and prints its own and the server's policy and session.
 */
const PROBE = `
import { readFileSync, readdirSync } from 'node:fs';
import { arrangeScheduling } from './bench/lib/scheduling.ts';
import { firstLine, spawnNode, stop } from './bench/lib/processes.ts';
const fields = (path) => { const s = readFileSync(path, 'utf8'); return s.slice(s.lastIndexOf(')') + 2).split(' '); };
// Field 6 of stat is the session, field 41 the policy (3 and 38 after the name).
const of = (pid) => ({
  session: Number(fields('/proc/' + pid + '/stat')[3]),
  policies: readdirSync('/proc/' + pid + '/task').map((t) => Number(fields('/proc/' + pid + '/task/' + t + '/stat')[38])),
});
const arranged = arrangeScheduling(process.argv.includes('plain'));
// It leaves when the probe does: in a session of its own, nothing else would end it.
const server = spawnNode('server', ['-e', 'const p = process.ppid; console.log("up"); setInterval(() => { if (process.ppid !== p) process.exit(0); }, 200)'], { cwd: process.cwd(), env: process.env });
await firstLine(server);
console.log(JSON.stringify({ description: arranged.description, self: of(process.pid), server: { pid: server.process.pid, ...of(server.process.pid) } }));
await stop(server);
`;

interface ProbeResult {
  description: string;
  self: { session: number; policies: number[] };
  server: { pid: number; session: number; policies: number[] };
}

function probe(plain: boolean): ProbeResult {
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', PROBE, '--', ...(plain ? ['plain'] : [])],
    { cwd: API_ROOT, encoding: 'utf8', timeout: 60_000 },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as ProbeResult;
}

const noChrt =
  process.platform !== 'linux'
    ? 'Linux only'
    : spawnSync('chrt', ['--version']).status !== 0
      ? "util-linux's chrt is not installed"
      : false;

describe('bench scheduling (lib/scheduling.ts)', { skip: noChrt }, () => {
  test('the generator is a batch task; each server runs as usual in a session of its own', () => {
    const result = probe(false);
    assert.deepEqual(new Set(result.self.policies), new Set([BATCH]), 'every generator thread');
    assert.deepEqual(new Set(result.server.policies), new Set([OTHER]), 'every server thread');
    assert.equal(result.server.session, result.server.pid, 'the server leads its own session');
    assert.notEqual(result.server.session, result.self.session);
    assert.match(result.description, /SCHED_BATCH/);
  });

  test('--plain-scheduling leaves both as the shell started them', () => {
    const result = probe(true);
    assert.deepEqual(new Set(result.self.policies), new Set([OTHER]));
    assert.deepEqual(new Set(result.server.policies), new Set([OTHER]));
    assert.equal(result.server.session, result.self.session);
    assert.match(result.description, /plain scheduling/);
  });
});
