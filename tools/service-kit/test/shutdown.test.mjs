import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const kit = fileURLToPath(new URL('../index.mjs', import.meta.url));

/** A process that closes through closeOnSignals; `closeMs` is how long its close takes. */
function startChild({ closeMs, delay }) {
  const script = `
    import { closeOnSignals } from ${JSON.stringify(kit)};
    const log = (level) => (obj, msg) => console.log(JSON.stringify({ level, obj: String(obj?.signal ?? obj), msg }));
    closeOnSignals({ logger: { info: log('info'), error: log('error') }, delay: ${delay} }, async () => {
      await new Promise((r) => setTimeout(r, ${closeMs}));
      console.log('closed');
    });
    setInterval(() => {}, 1000);
    console.log('ready');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const ready = new Promise((resolve) => child.stdout.on('data', () => out.includes('ready') && resolve()));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => out };
}

test('SIGTERM runs the close once and exits 0', async () => {
  const { child, ready, exited, output } = startChild({ closeMs: 50, delay: 5000 });
  await ready;
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.match(output(), /"msg":"shutting down"/);
  assert.match(output(), /"obj":"SIGTERM"/);
  assert.equal(output().match(/closed/g)?.length, 1);
});

test('a close that outlasts the delay is cut short with exit 1', async () => {
  const { child, ready, exited, output } = startChild({ closeMs: 60_000, delay: 200 });
  await ready;
  child.kill('SIGINT');
  assert.equal(await exited, 1);
  assert.doesNotMatch(output(), /closed/);
  assert.match(output(), /killed by timeout/);
});

/**
 * A process whose close is asked for by another (a node:cluster supervisor that got the signal):
 * `close(signal)` on the first line of stdin, with a lifecycle and a drain delay of `drainMs`.
 */
function startAsked({ signal, drainMs }) {
  const script = `
    import { closeOnSignals, createLifecycle } from ${JSON.stringify(kit)};
    const log = () => () => {};
    const lifecycle = createLifecycle();
    const started = Date.now();
    const closing = closeOnSignals(
      { logger: { info: log(), error: log() }, lifecycle, drainDelay: ${drainMs}, delay: 10000 },
      async () => console.log(JSON.stringify({ closedAfter: Date.now() - asked, draining: lifecycle.draining })),
    );
    let asked = 0;
    process.stdin.once('data', () => {
      asked = Date.now();
      closing.close(${signal ? JSON.stringify(signal) : 'undefined'});
    });
    console.log('ready');
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const ready = new Promise((resolve) => child.stdout.on('data', () => out.includes('ready') && resolve()));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited, closed: () => JSON.parse(out.split('\n').find((line) => line.startsWith('{'))) };
}

test('a close asked for as SIGTERM waits out the drain delay, as the signal itself does', async () => {
  const { child, ready, exited, closed } = startAsked({ signal: 'SIGTERM', drainMs: 600 });
  await ready;
  child.stdin.write('stop\n');
  assert.equal(await exited, 0);
  assert.equal(closed().draining, true);
  assert.ok(closed().closedAfter >= 600, `closed after ${closed().closedAfter} ms`);
});

test('a close asked for without a signal drains but does not wait', async () => {
  const { child, ready, exited, closed } = startAsked({ drainMs: 5000 });
  await ready;
  child.stdin.write('stop\n');
  assert.equal(await exited, 0);
  assert.equal(closed().draining, true);
  assert.ok(closed().closedAfter < 5000, `closed after ${closed().closedAfter} ms`);
});
