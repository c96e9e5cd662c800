import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { serverCommand } from './scheduling';

/** A loopback port nothing listens on right now (the API takes its port from the environment). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  name: string;
  process: ChildProcess;
  /** Last lines of stderr, shown when the child dies before it is ready. */
  stderrTail: () => string;
}

/** Runs a TypeScript entry with tsx's loader, as `tsx <entry>` would, plus `nodeArgs`. */
export function spawnTs(
  name: string,
  entry: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; nodeArgs?: string[] },
): Child {
  return spawnNode(name, [...(options.nodeArgs ?? []), '--import', 'tsx', entry], options);
}

/** Runs this Node with `args` (a plain `.mjs` server such as the host's `server.mjs`). */
export function spawnNode(
  name: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Child {
  const command = serverCommand(args);
  const child = spawn(command.command, command.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: command.detached,
  });
  const tail: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    tail.push(text);
    if (tail.length > 40) tail.shift();
    // Warnings and errors of the child belong in the bench's output; a quiet API prints none.
    process.stderr.write(`[${name}] ${text}`);
  });
  return { name, process: child, stderrTail: () => tail.join('') };
}

/** First line the child prints on stdout (the bare server announces its port that way). */
export function firstLine(child: Child): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const stdout = child.process.stdout!;
    stdout.setEncoding('utf8');
    const onData = (text: string) => {
      buffered += text;
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        stdout.off('data', onData);
        child.process.off('exit', onExit);
        // Keep draining so a chatty child never blocks on a full pipe.
        stdout.resume();
        resolve(buffered.slice(0, newline));
      }
    };
    const onExit = (code: number | null) =>
      reject(
        new Error(`${child.name} exited (${code}) before it was ready:\n${child.stderrTail()}`),
      );
    stdout.on('data', onData);
    child.process.once('exit', onExit);
  });
}

function getStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

/** Waits until `GET path` answers 200, failing fast when the child dies first. */
export async function waitHealthy(child: Child, port: number, path: string, timeoutMs: number) {
  child.process.stdout?.resume();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) {
      throw new Error(`${child.name} exited (${child.process.exitCode}):\n${child.stderrTail()}`);
    }
    if ((await getStatus(port, path)) === 200) return;
    await sleep(200);
  }
  throw new Error(`${child.name} was not healthy within ${timeoutMs} ms:\n${child.stderrTail()}`);
}

/** SIGTERM (the servers close cleanly on it), then SIGKILL if the child ignores it. */
export async function stop(child: Child, graceMs = 10_000): Promise<void> {
  const proc = child.process;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
