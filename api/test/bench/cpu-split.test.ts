import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpuSnapshot, cpuSplit, type CpuSnapshot } from '../../bench/lib/cpu-split';

const snapshot = (parts: Record<string, number>, busy: number, total: number): CpuSnapshot => ({
  parts: new Map(Object.entries(parts)),
  busy,
  total,
});

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
    assert.ok(Math.abs(split.idle - 0.2 * n) < 1e-9);
    assert.equal(split.parts[0]?.part, 'API', 'busiest first');
  });

  test(
    'a process and its children count for the part named by its id',
    { skip: process.platform !== 'linux' },
    async () => {
      // A parent that starts a busy child: the child's time is the parent's part.
      const parent = spawn(process.execPath, [
        '-e',
        `require('node:child_process').spawn(process.execPath, ['-e', 'const end = Date.now() + 1500; while (Date.now() < end);'], { stdio: 'inherit' }).on('exit', () => process.exit(0))`,
      ]);
      try {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const start = cpuSnapshot({ busy: parent.pid });
        await new Promise((resolve) => setTimeout(resolve, 800));
        const end = cpuSnapshot({ busy: parent.pid });
        assert.ok(start && end);
        const busy = cpuSplit(start, end).parts.find((p) => p.part === 'busy');
        assert.ok(busy && busy.cores > 0.2, `the busy child used ${busy?.cores} cores`);
      } finally {
        parent.kill();
      }
    },
  );
});
