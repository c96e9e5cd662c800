import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionStatusValue } from '@portal/contract';
import { createSessionStatusCache } from '../../../src/services/sessions/session-status-cache';
import type { OwnedSessionKey } from '../../../src/repositories/session-repository';

const key = (uuid: string): OwnedSessionKey => ({ uuid, userId: `user-${uuid}`, productId: 1 });

/** A load the test finishes when it likes, counting how often the database was asked. */
function heldLoads() {
  const waiting: Array<() => void> = [];
  let count = 0;
  return {
    load: (status: SessionStatusValue) => async () => {
      count++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return status;
    },
    /** A load answering at once, so a test that finds no entry fails instead of waiting. */
    now: (status: SessionStatusValue) => async () => {
      count++;
      return status;
    },
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
    get count() {
      return count;
    },
  };
}

describe('session status cache', () => {
  test('a load that overlapped another session’s change keeps its answer', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const reading = cache.read(key('a'), held.load('in_progress'));
    // Another learner's simulator joins meanwhile: nothing about session a changed.
    cache.forget(['b']);
    held.releaseAll();
    assert.equal(await reading, 'in_progress');
    const again = await cache.read(key('a'), held.now('complete'));
    assert.equal(again, 'in_progress', 'answered from memory');
    assert.equal(held.count, 1);
  });

  test('a load that overlapped its own session’s change keeps nothing', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const reading = cache.read(key('a'), held.load('not_started'));
    cache.forget(['a']); // the simulator joined after the load read
    held.releaseAll();
    assert.equal(await reading, 'not_started');
    const fresh = cache.read(key('a'), held.load('in_progress'));
    held.releaseAll();
    assert.equal(await fresh, 'in_progress');
    assert.equal(held.count, 2, 'the stale answer was not reused');
  });

  test('forgetting everything stops every load under way from storing', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const readings = [
      cache.read(key('a'), held.load('not_started')),
      cache.read(key('b'), held.load('not_started')),
    ];
    cache.forgetAll();
    held.releaseAll();
    await Promise.all(readings);
    const after = [
      cache.read(key('a'), held.load('complete')),
      cache.read(key('b'), held.load('complete')),
    ];
    held.releaseAll();
    assert.deepEqual(await Promise.all(after), ['complete', 'complete']);
    assert.equal(held.count, 4);
  });

  test('reads of a session while its load is under way wait for that load', async () => {
    const lookups: string[] = [];
    const cache = createSessionStatusCache(30_000, undefined, undefined, (result) =>
      lookups.push(result),
    );
    const held = heldLoads();
    const first = cache.read(key('a'), held.load('not_started'));
    const second = cache.read(key('a'), held.load('in_progress'));
    const third = cache.read(key('a'), held.load('in_progress'));
    held.releaseAll();
    assert.deepEqual(await Promise.all([first, second, third]), [
      'not_started',
      'not_started',
      'not_started',
    ]);
    assert.equal(held.count, 1, 'one query for the three polls');
    assert.equal(await cache.read(key('a'), held.now('complete')), 'not_started', 'stored');
    assert.equal(held.count, 1);
    // The metric tells the waiting reads from loads: they cost no statement.
    assert.deepEqual(lookups, ['miss', 'shared', 'shared', 'hit']);
  });

  test('a read after its session changed does not wait for the load from before', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const before = cache.read(key('a'), held.load('not_started'));
    cache.forget(['a']); // the simulator joined after that load read
    const after = cache.read(key('a'), held.load('in_progress'));
    held.releaseAll();
    assert.equal(await before, 'not_started');
    assert.equal(await after, 'in_progress');
    assert.equal(held.count, 2);
    assert.equal(
      await cache.read(key('a'), held.now('complete')),
      'in_progress',
      'the later load stored',
    );
  });

  test('another learner asking for the session while it loads is not given its answer', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const owner = cache.read(key('a'), held.load('in_progress'));
    const stranger = cache.read({ ...key('a'), userId: 'someone-else' }, held.load(null as never));
    held.releaseAll();
    assert.equal(await owner, 'in_progress');
    assert.equal(await stranger, null);
    assert.equal(held.count, 2);
  });

  test('a change moves a held status forward, and an older notice arriving late does not move it back', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    await cache.read(key('a'), held.now('not_started'));
    cache.advance([{ uuid: 'a', status: 'complete' }]);
    assert.equal(await cache.read(key('a'), held.now('not_started')), 'complete', 'from memory');
    cache.advance([{ uuid: 'a', status: 'in_progress' }]); // the join's notice, after the completion
    assert.equal(await cache.read(key('a'), held.now('not_started')), 'complete');
    assert.equal(held.count, 1, 'no poll after the changes read the database');
    // Another learner still gets "not found" for it.
    assert.equal(
      await cache.read({ ...key('a'), userId: 'someone-else' }, held.now('complete')),
      null,
    );
  });

  test('a change during a load: the load neither stores nor is waited for', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const before = cache.read(key('a'), held.load('not_started'));
    cache.advance([{ uuid: 'a', status: 'in_progress' }]);
    const after = cache.read(key('a'), held.load('in_progress'));
    held.releaseAll();
    assert.equal(await before, 'not_started');
    assert.equal(await after, 'in_progress');
    assert.equal(held.count, 2);
    assert.equal(await cache.read(key('a'), held.now('complete')), 'in_progress');
  });

  test('a change to a session not held stores nothing; a created one is remembered', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    cache.advance([{ uuid: 'a', status: 'in_progress' }]);
    assert.equal(
      await cache.read(key('a'), held.now('complete')),
      'complete',
      'read from the database',
    );
    cache.remember(key('b'), 'not_started');
    assert.equal(await cache.read(key('b'), held.now('in_progress')), 'not_started');
    assert.equal(held.count, 1);
  });
});
