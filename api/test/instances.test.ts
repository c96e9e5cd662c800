import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createMigratedTestDatabase, type TestDatabase } from './helper';
import { freePort } from './lti/lms-browser';
import { NEEDS_POSTGRES } from './scale-out/two-instances';
import { slowRequest } from './ops/api-process';

const apiDir = fileURLToPath(new URL('..', import.meta.url));

function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: { ...process.env, API_HOST: '127.0.0.1', PGLITE_DIR: 'memory://', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A GET on a connection of its own, so the cluster may hand each to another instance. */
function healthz(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('API_INSTANCES above 1 without DATABASE_URL is refused at start, naming both', { timeout: 60_000 }, async () => {
  const child = startServer({ API_INSTANCES: '2', API_PORT: '0' });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  assert.match(stderr, /API_INSTANCES: 2 instances need DATABASE_URL \(PostgreSQL\)/);
});

describe('API_INSTANCES=2 on PostgreSQL', { skip: NEEDS_POSTGRES, timeout: 120_000 }, () => {
  let database: TestDatabase;
  let child: ChildProcess;
  let port: number;
  /** Every JSON log line so far, and a way to wait for one. */
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  const logged = async (match: (l: Record<string, unknown>) => boolean, what: string, count = 1) => {
    const deadline = Date.now() + 60_000;
    while (lines.filter(match).length < count) {
      assert.ok(Date.now() < deadline, `no log line: ${what}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 500);
      });
    }
    return lines.filter(match);
  };
  const listeningLines = (l: Record<string, unknown>) => /^Server listening at/.test(String(l.msg));

  before(async () => {
    database = await createMigratedTestDatabase();
    port = await freePort();
    child = startServer({
      API_INSTANCES: '2',
      API_PORT: String(port),
      DATABASE_URL: database.url!,
      // Health checks are logged at debug: each names the instance (pid) that answered.
      LOG_LEVEL: 'debug',
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        return;
      }
      for (const wake of waiters.splice(0)) wake();
    });
    child.stderr!.resume();
  });
  after(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await database?.dispose();
  });

  test('two processes serve one port, a dead one is replaced, SIGTERM stops them all', async () => {
    const started = await logged(listeningLines, 'two instances listening', 2);
    const pids = new Set(started.map((l) => l.pid as number));
    assert.equal(pids.size, 2);
    assert.ok(!pids.has(child.pid!), 'the instances are processes of their own');

    const answered = new Set<number>();
    for (let i = 0; i < 20 && answered.size < 2; i++) {
      assert.equal(await healthz(port), 200);
      const served = await logged((l) => l.msg === 'request completed', 'a request line', i + 1);
      for (const l of served) answered.add(l.pid as number);
    }
    assert.deepEqual([...answered].sort(), [...pids].sort(), 'both instances answered');

    const [victim] = pids;
    process.kill(victim!, 'SIGKILL');
    const again = await logged(listeningLines, 'a replacement listening', 3);
    const replacement = again.map((l) => l.pid as number).find((pid) => !pids.has(pid));
    assert.ok(replacement, 'a third process');
    assert.equal(await healthz(port), 200);

    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    for (const pid of [...pids, replacement]) if (pid !== victim) assert.ok(!alive(pid!), `instance ${pid} stopped`);
  });
});

/** GET `path` on a connection of its own: its status and Connection header, or the error code. */
function probe(port: number, path: string): Promise<{ status: number; connection?: string } | { code: string }> {
  return new Promise((resolve) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    }).on('error', (error: NodeJS.ErrnoException) => resolve({ code: error.code ?? error.message }));
  });
}

/**
 * Issue #24 point 2 with API_INSTANCES: a SIGTERM to `npm start` (what an orchestrator sends
 * the container's first process) drains every instance as a single process drains, instead of
 * closing the port at once; an instance stopped on its own is replaced while the others serve.
 */
describe('API_INSTANCES=2: rolling and whole stops', { skip: NEEDS_POSTGRES, timeout: 120_000 }, () => {
  let database: TestDatabase;
  let child: ChildProcess;
  let port: number;
  const lines: Array<Record<string, unknown>> = [];
  const logged = async (match: (l: Record<string, unknown>) => boolean, what: string, count = 1) => {
    const deadline = Date.now() + 60_000;
    while (lines.filter(match).length < count) {
      assert.ok(Date.now() < deadline, `no log line: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return lines.filter(match);
  };
  const listeningLines = (l: Record<string, unknown>) => /^Server listening at/.test(String(l.msg));

  before(async () => {
    database = await createMigratedTestDatabase();
    port = await freePort();
    child = startServer({
      API_INSTANCES: '2',
      API_PORT: String(port),
      DATABASE_URL: database.url!,
      SHUTDOWN_DRAIN_SECONDS: '3',
      SHUTDOWN_GRACE_SECONDS: '30',
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not a log line.
      }
    });
    child.stderr!.resume();
  });
  after(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await database?.dispose();
  });

  test('an instance stopped with SIGTERM drains while the other serves, and is replaced', async () => {
    const started = await logged(listeningLines, 'two instances listening', 2);
    const [victim] = started.map((l) => l.pid as number);
    process.kill(victim!, 'SIGTERM');
    // Through its drain and close, every new connection to the port is answered.
    const until = Date.now() + 4_000;
    let answered = 0;
    while (Date.now() < until) {
      const result = await probe(port, '/healthz');
      assert.deepEqual('status' in result ? result.status : result, 200);
      answered++;
    }
    assert.ok(answered > 5, `${answered} requests during the stop`);
    await logged((l) => l.msg === 'API instance stopped; starting another', 'the clean stop is no crash');
    assert.equal(lines.filter((l) => l.msg === 'API instance died; starting another').length, 0);
    await logged(listeningLines, 'a replacement listening', 3);
    assert.equal(await healthz(port), 200);
  });

  test('SIGTERM to the start: unready at once, still serving for SHUTDOWN_DRAIN_SECONDS, then closed after the requests in flight', async () => {
    const inFlight = slowRequest(`http://127.0.0.1:${port}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sent = Date.now();
    child.kill('SIGTERM');
    const exited = once(child, 'exit');
    await logged((l) => l.msg === 'shutting down', 'both instances shutting down', 2);
    // Within the drain delay: every instance says it is draining and still serves, each answer
    // telling the keep-alive client to reconnect (through the load balancer) elsewhere.
    assert.deepEqual(await probe(port, '/readyz'), { status: 503, connection: 'close' });
    assert.deepEqual(await probe(port, '/healthz'), { status: 200, connection: 'close' });
    assert.ok(Date.now() - sent < 3_000, 'answered within the drain delay');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, sent + 4_500 - Date.now())));
    assert.deepEqual(await probe(port, '/healthz'), { code: 'ECONNREFUSED' });
    assert.equal(child.exitCode, null, 'the start waits for the request in flight');
    inFlight.finish();
    assert.equal(await inFlight.answer, 302);
    const [code] = await exited;
    assert.equal(code, 0);
  });
});
