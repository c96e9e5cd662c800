import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { addressKey, createAttemptLimiter } from '../src/security/attempt-limiter';

function testClock() {
  let time = 1_700_000_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const MINUTE = 60_000;

describe('attempt limiter', () => {
  it('blocks a key at its 10th failure within 15 minutes, until the oldest leaves the window', () => {
    const clock = testClock();
    const limiter = createAttemptLimiter({ now: clock.now, maxFailures: 10 });
    for (let n = 0; n < 9; n += 1) {
      limiter.fail(['k']);
      clock.advance(MINUTE);
    }
    assert.equal(limiter.retryAfterSeconds(['k']), 0);
    limiter.fail(['k']); // 10th, nine minutes after the first
    assert.equal(limiter.retryAfterSeconds(['k']), 6 * 60);
    clock.advance(6 * MINUTE - 1_000);
    assert.equal(limiter.retryAfterSeconds(['k']), 1);
    clock.advance(1_000);
    // Sliding: the first failure has left, the other nine still count.
    assert.equal(limiter.retryAfterSeconds(['k']), 0);
    limiter.fail(['k']);
    assert.ok(limiter.retryAfterSeconds(['k']) > 0);
  });

  it('answers the longest wait of the keys asked about, and keys do not share counts', () => {
    const clock = testClock();
    const limiter = createAttemptLimiter({ now: clock.now, maxFailures: 2 });
    limiter.fail(['account:a', 'address:1']);
    limiter.fail(['account:b', 'address:1']);
    assert.equal(limiter.retryAfterSeconds(['account:a']), 0);
    assert.equal(limiter.retryAfterSeconds(['account:c', 'address:2']), 0);
    assert.equal(limiter.retryAfterSeconds(['account:c', 'address:1']), 15 * 60);
  });

  it('forgets a key on request and after a quiet window', () => {
    const clock = testClock();
    const limiter = createAttemptLimiter({ now: clock.now, maxFailures: 1 });
    limiter.fail(['a', 'b']);
    limiter.forget('a');
    assert.equal(limiter.retryAfterSeconds(['a']), 0);
    assert.ok(limiter.retryAfterSeconds(['b']) > 0);
    clock.advance(15 * MINUTE + 1);
    assert.equal(limiter.retryAfterSeconds(['b']), 0);
  });

  it('defaults to the per-address cap of 100 failures in 15 minutes', () => {
    const clock = testClock();
    const limiter = createAttemptLimiter({ now: clock.now });
    for (let n = 0; n < 99; n += 1) limiter.fail(['k']);
    assert.equal(limiter.retryAfterSeconds(['k']), 0);
    limiter.fail(['k']);
    assert.equal(limiter.retryAfterSeconds(['k']), 15 * 60);
  });

  it('takes back one failure by its time, and only that one', () => {
    const clock = testClock();
    const limiter = createAttemptLimiter({ now: clock.now, maxFailures: 2 });
    limiter.fail(['k']);
    clock.advance(1_000);
    const second = limiter.fail(['k']);
    assert.ok(limiter.retryAfterSeconds(['k']) > 0);
    limiter.withdraw(['k'], second);
    assert.equal(limiter.retryAfterSeconds(['k']), 0);
    limiter.withdraw(['k'], second);
    limiter.fail(['k']);
    assert.ok(limiter.retryAfterSeconds(['k']) > 0, 'the first failure is still counted');
  });

  it('remembers at most maxKeys keys', () => {
    const limiter = createAttemptLimiter({ maxFailures: 1, maxKeys: 2 });
    limiter.fail(['first']);
    limiter.fail(['second']);
    limiter.fail(['third']);
    assert.equal(limiter.retryAfterSeconds(['first']), 0);
    assert.ok(limiter.retryAfterSeconds(['third']) > 0);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and groups IPv6 by /64', () => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:0db8:0001:0002::9'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    assert.equal(addressKey(undefined), 'unknown');
  });
});
