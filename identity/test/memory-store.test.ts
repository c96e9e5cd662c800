import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import type { AdapterPayload } from 'oidc-provider';

import { createMemoryStore } from '../src/oidc/memory-store';

/** A clock tests move by hand; lru-cache reads it on every check. */
function testClock() {
  let time = 1_700_000_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const refreshToken = (grantId: string, extra: Partial<AdapterPayload> = {}): AdapterPayload => ({ grantId, kind: 'RefreshToken', ...extra });

describe('in-memory store', () => {
  it('drops the least recently used entry of a model at its bound, and only of that model', async () => {
    const evicted: string[] = [];
    const store = createMemoryStore({ maxEntriesPerModel: 3, onEvict: (model, id) => evicted.push(`${model}:${id}`) });
    const sessions = store('Session');
    const interactions = store('Interaction');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'a' }, 3600);
    for (const id of ['i1', 'i2', 'i3']) await interactions.upsert(id, { kind: 'Interaction' }, 3600);
    await interactions.find('i1'); // now i2 is the least recently used

    await interactions.upsert('i4', { kind: 'Interaction' }, 3600);

    assert.equal(await interactions.find('i2'), undefined);
    assert.ok(await interactions.find('i1'));
    assert.ok(await interactions.find('i4'));
    assert.deepEqual(evicted, ['Interaction:i2']);
    // A flood of interactions never pushes out a session.
    for (let n = 5; n < 50; n += 1) await interactions.upsert(`i${n}`, { kind: 'Interaction' }, 3600);
    assert.equal((await sessions.findByUid('u1'))?.accountId, 'a');
  });

  it('forgets an entry when its expiresIn has passed, and keeps one without expiry', async () => {
    const clock = testClock();
    const codes = createMemoryStore({ now: clock.now })('DeviceCode');
    await codes.upsert('d1', { userCode: 'BCDFGHJK' }, 600);
    await codes.upsert('d2', { userCode: 'LMNPQRST' }, 0);

    clock.advance(599_000);
    assert.ok(await codes.find('d1'));
    assert.ok(await codes.findByUserCode('BCDFGHJK'));
    clock.advance(2_000);
    assert.equal(await codes.find('d1'), undefined);
    assert.equal(await codes.findByUserCode('BCDFGHJK'), undefined);
    assert.ok(await codes.findByUserCode('LMNPQRST'));
  });

  it('keeps a consumed token until its own expiry, so a second use can still be recognised', async () => {
    const clock = testClock();
    const tokens = createMemoryStore({ now: clock.now })('RefreshToken');
    await tokens.upsert('r1', refreshToken('g1'), 100);
    clock.advance(50_000);
    await tokens.consume('r1');
    assert.equal((await tokens.find('r1'))?.consumed, Math.floor(clock.now() / 1000));
    clock.advance(49_000);
    assert.ok(await tokens.find('r1'), 'consuming must not restart or drop the expiry');
    clock.advance(2_000);
    assert.equal(await tokens.find('r1'), undefined);
  });

  it('cleans the uid, user code and grant indexes when an entry is evicted', async () => {
    const store = createMemoryStore({ maxEntriesPerModel: 2 });
    const sessions = store('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'first' }, 3600);
    await sessions.upsert('s2', { uid: 'u2', accountId: 'second' }, 3600);
    await sessions.upsert('s3', { uid: 'u3', accountId: 'third' }, 3600); // evicts s1
    // The id comes back for someone else: the evicted entry's uid must not lead to it.
    await sessions.upsert('s1', { uid: 'u9', accountId: 'newcomer' }, 3600);
    assert.equal(await sessions.findByUid('u1'), undefined);
    assert.equal((await sessions.findByUid('u9'))?.accountId, 'newcomer');

    const codes = store('DeviceCode');
    await codes.upsert('d1', { userCode: 'OLD' }, 600);
    await codes.upsert('d2', { userCode: 'B' }, 600);
    await codes.upsert('d3', { userCode: 'C' }, 600); // evicts d1
    await codes.upsert('d1', { userCode: 'NEW' }, 600);
    assert.equal(await codes.findByUserCode('OLD'), undefined);

    const tokens = store('RefreshToken');
    await tokens.upsert('r1', refreshToken('revoked-later'), 3600);
    await tokens.upsert('r2', refreshToken('other'), 3600);
    await tokens.upsert('r3', refreshToken('other'), 3600); // evicts r1
    await tokens.upsert('r1', refreshToken('live'), 3600);
    await tokens.revokeByGrantId('revoked-later');
    assert.equal((await tokens.find('r1'))?.grantId, 'live', 'revoking an old grant must not hit the reused id');
  });

  it('revokes every record of a grant and nothing else', async () => {
    const store = createMemoryStore();
    const tokens = store('RefreshToken');
    const codes = store('AuthorizationCode');
    await tokens.upsert('r1', refreshToken('g1'), 3600);
    await tokens.upsert('r2', refreshToken('g1'), 3600);
    await tokens.upsert('r3', refreshToken('g2'), 3600);
    await codes.upsert('c1', { grantId: 'g1' }, 60);

    await tokens.revokeByGrantId('g1');
    await codes.revokeByGrantId('g1');

    assert.equal(await tokens.find('r1'), undefined);
    assert.equal(await tokens.find('r2'), undefined);
    assert.equal(await codes.find('c1'), undefined);
    assert.ok(await tokens.find('r3'));
  });

  it('hands out copies, so a caller cannot change what is stored', async () => {
    const grants = createMemoryStore()('Grant');
    await grants.upsert('g1', { accountId: 'a', openid: { scope: 'openid' } }, 3600);
    const found = (await grants.find('g1'))!;
    (found.openid as { scope: string }).scope = 'openid admin';
    assert.equal(((await grants.find('g1'))!.openid as { scope: string }).scope, 'openid');
  });

  it("forgets every session, grant and token of one account, and only that account's", async () => {
    const store = createMemoryStore();
    await store('Session').upsert('s1', { uid: 'u1', accountId: 'gone' }, 3600);
    await store('Session').upsert('s2', { uid: 'u2', accountId: 'stays' }, 3600);
    await store('Grant').upsert('g1', { accountId: 'gone' }, 3600);
    await store('RefreshToken').upsert('r1', refreshToken('g1', { accountId: 'gone' }), 3600);
    await store('RefreshToken').upsert('r2', refreshToken('g2', { accountId: 'stays' }), 3600);
    // Overwritten entries move in the index with their new owner.
    await store('Grant').upsert('g2', { accountId: 'gone' }, 3600);
    await store('Grant').upsert('g2', { accountId: 'stays' }, 3600);

    store.forgetAccount('gone');

    assert.equal(await store('Session').findByUid('u1'), undefined);
    assert.equal(await store('Grant').find('g1'), undefined);
    assert.equal(await store('RefreshToken').find('r1'), undefined);
    assert.ok(await store('Session').findByUid('u2'));
    assert.ok(await store('Grant').find('g2'));
    assert.ok(await store('RefreshToken').find('r2'));
  });

  it('refuses a bound that is not a positive integer', () => {
    assert.throws(() => createMemoryStore({ maxEntriesPerModel: 0 }), RangeError);
    assert.throws(() => createMemoryStore({ maxEntriesPerModel: 1.5 }), RangeError);
  });
});
