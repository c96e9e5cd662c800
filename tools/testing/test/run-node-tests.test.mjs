import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';

import { findTestFiles, runNodeTests } from '../run-node-tests.mjs';

/** Collects what the runner prints. */
function sink() {
  const chunks = [];
  const out = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { out, text: () => chunks.join('') };
}

describe('run-node-tests', () => {
  let dir;
  const file = (name, body) => {
    writeFileSync(path.join(dir, name), `import { it } from 'node:test';\n${body}\n`);
    return name;
  };

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'run-node-tests-'));
    file('passes.test.mjs', "it('one', () => {});\nit('two', () => {});");
    file('fails.test.mjs', "it('breaks', () => { throw new Error('broken'); });");
    // Printed bytes that look like the start of node --test's own report frames (0xFF 0x0F), and
    // text before a report: what node 20's runner could hang on. Here it is only output.
    file(
      'prints.test.mjs',
      'process.stdout.write(Buffer.from([0xff, 0x0f, 0x7f, 0xff, 0xff, 0xff]));\n' +
        "console.log('a notice on standard output');\nit('after printing', () => {});",
    );
    file('never-ends.test.mjs', "it('waits', () => {});\nsetInterval(() => {}, 1000);");
    file('slow.test.mjs', "it('slow', () => new Promise((resolve) => setTimeout(resolve, 600)));");
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds test files in folders, sorted, and leaves other files out', () => {
    writeFileSync(path.join(dir, 'helper.mjs'), '');
    assert.deepEqual(findTestFiles(['.'], dir), [
      'fails.test.mjs',
      'never-ends.test.mjs',
      'passes.test.mjs',
      'prints.test.mjs',
      'slow.test.mjs',
    ]);
  });

  it('adds up the files’ counts and names every file that failed', async () => {
    const { out, text } = sink();
    const result = await runNodeTests({
      files: ['passes.test.mjs', 'fails.test.mjs', 'prints.test.mjs'],
      cwd: dir,
      out,
    });
    assert.equal(result.totals.tests, 4);
    assert.equal(result.totals.pass, 3);
    assert.equal(result.totals.fail, 1);
    assert.deepEqual(result.failed, [{ file: 'fails.test.mjs', reason: 'exit code 1' }]);
    assert.match(text(), /a notice on standard output/);
    assert.match(text(), /# all 3 files: tests 4, suites 0, pass 3, fail 1/);
    assert.match(text(), /# failed: fails\.test\.mjs \(exit code 1\)/);
  });

  it('stops a file that has not ended within its limit and fails it by name', async () => {
    const { out, text } = sink();
    const started = performance.now();
    const result = await runNodeTests({
      files: ['never-ends.test.mjs'],
      cwd: dir,
      out,
      limitMs: 1_500,
    });
    assert.ok(performance.now() - started < 15_000);
    assert.deepEqual(result.failed, [
      { file: 'never-ends.test.mjs', reason: 'had not ended after 1.5 s' },
    ]);
    // What it printed before it was stopped is kept (a file prints its counts only as it exits).
    assert.match(text(), /ok 1 - waits/);
    assert.match(text(), /# never-ends\.test\.mjs had not ended after 1\.5 s: stopped/);
  });

  it('runs files side by side and prints each one’s output whole, in the order they started', async () => {
    const { out, text } = sink();
    const result = await runNodeTests({
      files: ['slow.test.mjs', 'passes.test.mjs'],
      cwd: dir,
      out,
      concurrency: 2,
    });
    assert.deepEqual(result.failed, []);
    const printed = text();
    const slow = printed.indexOf('# ── slow.test.mjs');
    const passes = printed.indexOf('# ── passes.test.mjs');
    assert.ok(slow >= 0 && passes > slow, 'the file that started first comes first');
    assert.ok(printed.indexOf('ok 1 - slow') < passes, 'its output is not cut by the other file');
  });
});
