import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpuSnapshot, cpuSplit, cpuSplitText, type CpuSnapshot } from '../../bench/lib/cpu-split';

const snapshot = (parts: Record<string, number>, busy: number, total: number): CpuSnapshot => ({
  parts: new Map(Object.entries(parts)),
  busy,
  total,
});

/** Processes whose parent is `pid` (from /proc: what the split itself reads). */
function childrenOf(pid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) count++;
    } catch {
      // Gone meanwhile.
    }
  }
  return count;
}

describe('bench CPU split', () => {
  test('parts are cores’ worth of the window; the rest of the busy time is everything else', () => {
    const split = cpuSplit(
      snapshot({ API: 100, PostgreSQL: 50 }, 1000, 10_000),
      // 1 000 machine ticks over all cores: on N cores that is N cores' worth of time.
      snapshot({ API: 100 + 300, PostgreSQL: 50 + 200 }, 1000 + 800, 10_000 + 1000),
    );
    const n = split.cores;
    const part = (name: string) => split.parts.find((p) => p.part === name)?.cores;
    assert.ok(Math.abs((part('API') ?? 0) - 0.3 * n) < 1e-9);
    assert.ok(Math.abs((part('PostgreSQL') ?? 0) - 0.2 * n) < 1e-9);
    assert.ok(Math.abs((part('everything else') ?? 0) - 0.3 * n) < 1e-9);
    assert.equal(split.other, part('everything else'), 'the figure the multiples are judged by');
    assert.ok(Math.abs(split.idle - 0.2 * n) < 1e-9);
    assert.equal(split.parts[0]?.part, 'API', 'busiest first');
  });

  test('time the host took (steal) is reported apart, in cores’ worth', () => {
    const split = cpuSplit(
      { ...snapshot({}, 1000, 10_000), steal: 40 },
      { ...snapshot({}, 1000 + 800, 10_000 + 1000), steal: 40 + 100 },
    );
    assert.ok(Math.abs(split.stolen - 0.1 * split.cores) < 1e-9);
    assert.match(cpuSplitText(split), /stolen by the host/);
    const none = cpuSplit(snapshot({}, 0, 1000), snapshot({}, 500, 2000));
    assert.equal(none.stolen, 0);
    assert.doesNotMatch(cpuSplitText(none), /stolen/);
  });

  test('waits for a core are per second of the window and a share of the wanted time', () => {
    const at = (ms: number, scheduled: Record<string, [number, number, number]>): CpuSnapshot => ({
      ...snapshot({}, 0, 1),
      at: ms,
      scheduled: new Map(
        Object.entries(scheduled).map(([part, [runNs, waitNs, preempted]]) => [
          part,
          { runNs, waitNs, preempted },
        ]),
      ),
    });
    const split = cpuSplit(
      at(1000, { API: [5e9, 1e9, 100], bare: [1e8, 1e8, 7], gone: [1e9, 1e9, 5] }),
      // 2 s later: the API ran 0.9 s, waited 0.3 s and was preempted 800 times; `bare` ran 0.1 s
      // and waited 0.1 s; `new` began within the window; `gone` is a different process now (its
      // times went back).
      at(3000, {
        API: [5.9e9, 1.3e9, 900],
        bare: [2e8, 2e8, 27],
        new: [1e9, 1e9, 1],
        gone: [1e6, 1e6, 0],
      }),
    );
    assert.deepEqual(
      split.waits.map((w) => [
        w.part,
        Math.round(w.msPerSecond),
        Math.round(100 * w.share),
        w.preemptedPerSecond,
      ]),
      [
        ['API', 150, 25, 400],
        ['bare', 50, 50, 10],
      ],
    );
  });

  test(
    'a process and its children count for the part named by its id',
    { skip: process.platform !== 'linux' },
    async () => {
      // A parent whose child spins until the parent is gone: the child's time is the parent's part.
      // No fixed run time, so a slow start on a busy machine cannot end it before the window.
      const parent = spawn(process.execPath, [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['-e', 'const p = process.ppid; while (process.ppid === p);'], { stdio: 'ignore' });
       process.on('SIGTERM', () => { c.kill('SIGKILL'); process.exit(0); });
       setInterval(() => undefined, 1000);`,
      ]);
      try {
        // Until the child runs: the parent has a child process.
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline) {
          if (childrenOf(parent.pid ?? -1) > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const start = cpuSnapshot({ busy: parent.pid });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const end = cpuSnapshot({ busy: parent.pid });
        assert.ok(start && end);
        const busy = cpuSplit(start, end).parts.find((p) => p.part === 'busy');
        // A spinning process gets a fair share of a core even on a loaded machine.
        assert.ok(busy && busy.cores > 0.05, `the busy child used ${busy?.cores} cores`);
        // Its main thread (and its parent's) were read from schedstat, where the kernel keeps it.
        const waits = cpuSplit(start, end).waits.find((w) => w.part === 'busy');
        if (readdirSync(`/proc/${parent.pid}`).includes('schedstat')) {
          assert.ok(waits && waits.share >= 0 && waits.share < 1, JSON.stringify(waits));
        }
      } finally {
        parent.kill('SIGTERM');
      }
    },
  );
});
