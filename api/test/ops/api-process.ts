import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createMigratedTestDatabase } from '../database/template';

const apiDir = fileURLToPath(new URL('../..', import.meta.url));

export interface ApiProcess {
  child: ChildProcess;
  address: string;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Kills what is left and drops the database. */
  dispose(): Promise<void>;
}

/**
 * `src/server.ts` as `npm start` runs it, in its own process (signals, listening socket, exit
 * code are the things under test), on a migrated copy of the test database.
 */
export async function startApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const database = await createMigratedTestDatabase();
  // PGlite is one process: the copy is opened by the server alone.
  await database.db.close();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: {
      ...process.env,
      API_PORT: '0',
      API_HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...database.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const logs: Array<Record<string, unknown>> = [];
  const lines = createInterface({ input: child.stdout! });
  const address = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      logs.push(entry);
      const match = /Server listening at (http:\/\/\S+)/.exec(String(entry.msg));
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`API exited with ${code}: ${JSON.stringify(logs)}`)));
  });
  return {
    child,
    address,
    logs,
    exited,
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await database.dispose();
    },
  };
}

/** One request whose body arrives in two parts, so it is in flight until `finish` is called. */
export function slowRequest(address: string) {
  const body = new URLSearchParams({ id_token: 'x'.repeat(200), state: 'not-ours' }).toString();
  const url = new URL('/api/lti/launch', address);
  const req = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 20));
  return {
    answer,
    finish: () => req.end(body.slice(20)),
  };
}
