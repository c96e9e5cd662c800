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

  test('of two overlapping loads of one session, the later one stores', async () => {
    const cache = createSessionStatusCache(30_000);
    const held = heldLoads();
    const first = cache.read(key('a'), held.load('not_started'));
    const second = cache.read(key('a'), held.load('in_progress'));
    held.releaseAll();
    await Promise.all([first, second]);
    assert.equal(await cache.read(key('a'), held.now('complete')), 'in_progress');
    assert.equal(held.count, 2);
  });
});
