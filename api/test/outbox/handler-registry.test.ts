import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createOutboxRegistry } from '../../src/outbox/handler-registry';
import { createJobRunner } from '../../src/jobs/job-runner';

describe('the outbox handler registry', () => {
  const handle = async () => undefined;

  test('lists the kinds its modules registered', () => {
    const registry = createOutboxRegistry();
    registry.register({ 'a.one': { handle }, 'a.two': { handle } });
    registry.register({ 'b.one': { handle } });
    assert.deepEqual(registry.kinds(), ['a.one', 'a.two', 'b.one']);
    assert.equal(registry.get('b.one')?.handle, handle);
    assert.equal(registry.get('c.one'), undefined);
  });

  test('refuses a kind registered twice', () => {
    const registry = createOutboxRegistry();
    registry.register({ 'a.one': { handle } });
    assert.throws(() => registry.register({ 'a.one': { handle } }), /a\.one is registered twice/);
  });
});

describe('a job runner', () => {
  /** A run that waits for the test to finish it, counting runs. */
  function gatedRuns() {
    let runs = 0;
    let open: () => void = () => undefined;
    return {
      run: () =>
        new Promise<number>((resolve) => {
          runs++;
          open = () => resolve(runs);
        }),
      finish: () => open(),
      runs: () => runs,
    };
  }
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  test('join: a trigger during a run gets that run', async () => {
    const gate = gatedRuns();
    const runner = createJobRunner(gate.run, 'join');
    const first = runner.run();
    const second = runner.run();
    gate.finish();
    assert.deepEqual(await Promise.all([first, second]), [1, 1]);
    assert.equal(gate.runs(), 1);
  });

  test('repeat: a trigger during a run asks for one more after it', async () => {
    const gate = gatedRuns();
    const runner = createJobRunner(gate.run, 'repeat');
    const first = runner.run();
    runner.run();
    runner.run();
    gate.finish();
    await turn();
    assert.equal(gate.runs(), 2, 'two triggers during a run make one more run');
    gate.finish();
    assert.equal(await first, 2);
    await runner.idle();
  });

  test('repeat: no more runs after close', async () => {
    const gate = gatedRuns();
    const runner = createJobRunner(gate.run, 'repeat');
    const first = runner.run();
    runner.run();
    runner.close();
    gate.finish();
    assert.equal(await first, 1);
    assert.equal(gate.runs(), 1);
  });
});
