import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions, type BenchOptions } from '../../bench/lib/options';
import { DEMO_ORGANISATION_COUNT } from '../../src/demo/seed-demo-data';

const parse = (...args: string[]) => parseOptions(args) as BenchOptions;

describe('bench:api options', () => {
  test('PGlite defaults spread the learners over every demo organisation and seat them all', () => {
    const options = parse();
    // Learner g belongs to organisation g mod n: Demo Hospital must have `learners` of them.
    assert.equal(options.organisations, DEMO_ORGANISATION_COUNT);
    assert.equal(options.population, DEMO_ORGANISATION_COUNT * options.learners);
    assert.ok(Math.floor(options.population / options.organisations) >= options.learners);
  });

  test('fewer organisations than the demo ones are refused, naming how many it takes', () => {
    assert.throws(
      () => parse('--organisations', String(DEMO_ORGANISATION_COUNT - 1)),
      new RegExp(`at least ${DEMO_ORGANISATION_COUNT}`),
    );
  });

  test('more learners than Demo Hospital’s share are refused', () => {
    assert.throws(() => parse('--learners', '100', '--population', '200'), /Demo Hospital's share/);
  });

  test('--plain-scheduling is off unless given', () => {
    assert.equal(parse().plainScheduling, false);
    assert.equal(parse('--plain-scheduling').plainScheduling, true);
  });
});
