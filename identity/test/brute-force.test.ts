import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BRUTE_FORCE, createAccountLockout, createSignInGuard, isRefusal } from '../src/security/brute-force';

function testClock() {
  let time = 1_700_000_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const SECOND = 1000;

describe("account lockout (Keycloak's brute-force detection, temporary lockout)", () => {
  /** Failures a person would make: slower than the quick-login check. */
  function failSlowly(lockout: ReturnType<typeof createAccountLockout>, clock: ReturnType<typeof testClock>, times: number) {
    for (let n = 0; n < times; n += 1) {
      lockout.fail('a');
      clock.advance(5 * SECOND);
    }
  }

  it('locks every failureFactor-th failure for waitIncrement times the round, at most maxFailureWait', () => {
    const clock = testClock();
    const lockout = createAccountLockout({ now: clock.now });
    assert.equal(BRUTE_FORCE.failureFactor, 5);
    failSlowly(lockout, clock, 4);
    assert.equal(lockout.lockedFor('a'), 0, 'four typos: no wait');
    lockout.fail('a');
    assert.equal(lockout.lockedFor('a'), 60, 'fifth: one minute');
    clock.advance(60 * SECOND);
    assert.equal(lockout.lockedFor('a'), 0);
    failSlowly(lockout, clock, 4);
    lockout.fail('a');
    assert.equal(lockout.lockedFor('a'), 120, 'tenth: two minutes');
    // Round after round the wait grows, up to 15 minutes.
    for (let round = 3; round <= 20; round += 1) {
      clock.advance(lockout.lockedFor('a') * SECOND);
      failSlowly(lockout, clock, 4);
      lockout.fail('a');
      assert.equal(lockout.lockedFor('a'), Math.min(round * 60, 900), `round ${round}`);
    }
  });

  it('locks two failures less than a second apart for the minimum quick-login wait', () => {
    const clock = testClock();
    const lockout = createAccountLockout({ now: clock.now });
    lockout.fail('a');
    clock.advance(300);
    lockout.fail('a');
    assert.equal(lockout.lockedFor('a'), BRUTE_FORCE.minimumQuickLoginWaitSeconds);
    assert.equal(lockout.lockedFor('b'), 0, 'per account');
  });

  it('starts counting afresh after maxDeltaTime without failures, or when cleared', () => {
    const clock = testClock();
    const lockout = createAccountLockout({ now: clock.now });
    failSlowly(lockout, clock, 4);
    clock.advance(BRUTE_FORCE.maxDeltaTimeSeconds * SECOND + 1);
    lockout.fail('a');
    assert.equal(lockout.lockedFor('a'), 0, 'the four old failures were forgotten');
    clock.advance(5 * SECOND);
    failSlowly(lockout, clock, 3);
    lockout.clear('a');
    lockout.fail('a');
    assert.equal(lockout.lockedFor('a'), 0);
  });
});

describe('sign-in guard', () => {
  it('refuses a locked account but not another account at the same address', () => {
    const clock = testClock();
    const guard = createSignInGuard({ now: clock.now });
    for (let n = 0; n < 5; n += 1) {
      const attempt = guard.begin({ account: 'account:a', address: 'address:1' });
      assert.equal(isRefusal(attempt), false);
      clock.advance(5 * SECOND);
    }
    clock.advance(-5 * SECOND);
    assert.deepEqual(guard.check({ account: 'account:a', address: 'address:1' }), { reason: 'account', retryAfterSeconds: 60 });
    assert.equal(guard.check({ account: 'account:b', address: 'address:1' }), undefined);
  });

  it('caps an address at 100 failures in 15 minutes over all accounts; success takes back only its own attempt', () => {
    const clock = testClock();
    const guard = createSignInGuard({ now: clock.now });
    for (let n = 0; n < 99; n += 1) guard.fail({ account: `account:${n}`, address: 'address:1' });
    const attempt = guard.begin({ account: 'account:owner', address: 'address:1' });
    assert.ok(!isRefusal(attempt));
    // Counted while the password is being checked: a racing post is refused.
    assert.equal(guard.check({ account: 'account:other', address: 'address:1' })?.reason, 'address');
    attempt.succeeded();
    assert.equal(guard.check({ account: 'account:other', address: 'address:1' }), undefined, 'the right password is no failure');
    guard.fail({ account: 'account:x', address: 'address:1' });
    assert.deepEqual(guard.check({ account: 'account:owner', address: 'address:1' }), { reason: 'address', retryAfterSeconds: 15 * 60 });
    assert.equal(guard.check({ account: 'account:owner', address: 'address:2' }), undefined, 'other addresses are not capped');
  });
});

describe('sign-in guard and concurrent attempts', () => {
  /** Two attempts for one account at the same moment, both let through. */
  function twoAttempts() {
    const clock = testClock();
    const guard = createSignInGuard({ now: clock.now });
    const [first, second] = [0, 1].map(() => guard.begin({ account: 'account:a', address: 'address:1' }));
    if (!first || !second || isRefusal(first) || isRefusal(second)) throw new Error('both should be let through');
    return { clock, guard, first, second };
  }

  it('does not take the owner signing in from two tabs at once for a script', () => {
    const { guard, first, second } = twoAttempts();
    // Both are being checked; a third at the same moment is let through too.
    assert.equal(guard.check({ account: 'account:a', address: 'address:1' }), undefined);
    first.succeeded();
    second.succeeded();
  });

  it('locks for the quick-login wait when two attempts fail within a second', () => {
    const { clock, guard, first, second } = twoAttempts();
    clock.advance(100);
    first.failed();
    clock.advance(100);
    second.failed();
    assert.deepEqual(guard.check({ account: 'account:a', address: 'address:1' }), {
      reason: 'account',
      retryAfterSeconds: BRUTE_FORCE.minimumQuickLoginWaitSeconds,
    });
  });

  it('counts racing attempts before they are checked: the fifth of five at once locks the account', () => {
    const clock = testClock();
    const guard = createSignInGuard({ now: clock.now });
    const attempts = Array.from({ length: 5 }, () => guard.begin({ account: 'account:a', address: 'address:1' }));
    assert.ok(attempts.every((attempt) => !isRefusal(attempt)));
    assert.equal(isRefusal(guard.begin({ account: 'account:a', address: 'address:1' })), true, 'the sixth waits');
  });
});
