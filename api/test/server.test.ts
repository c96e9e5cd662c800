import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const apiDir = fileURLToPath(new URL('..', import.meta.url));

test(
  'the server starts, answers /healthz and closes cleanly on SIGTERM',
  // A cold start transpiles every source file (tsx's cache is empty on a clean clone) and runs
  // every migration on an in-memory PGlite, beside other test files on two cores: over a minute.
  { timeout: 180_000 },
  async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiDir,
      env: {
        ...process.env,
        API_PORT: '0',
        API_HOST: '127.0.0.1',
        PGLITE_DIR: 'memory://',
        LOG_LEVEL: 'info',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines = createInterface({ input: child.stdout! });
      let address: string | undefined;
      const logs: Array<Record<string, unknown>> = [];
      for await (const line of lines) {
        const entry = JSON.parse(line) as Record<string, unknown>; // every log line is JSON
        logs.push(entry);
        const match = /Server listening at (http:\/\/\S+)/.exec(String(entry.msg));
        if (match) {
          address = match[1];
          break;
        }
      }
      assert.ok(address, `no listening line in ${JSON.stringify(logs)}`);
      const res = await fetch(`${address}/healthz`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: 'ok' });

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  },
);
