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
