import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPair, exportJWK, jwtVerify, SignJWT, errors, type CryptoKey, type JWK } from 'jose';
import { createOutboundClient } from '../../src/lib/outbound-http';
import { createPlatformKeys, UNKNOWN_KID_REFETCH_MS } from '../../src/lti/platform-keys';
import type { RegisteredPlatform } from '../../src/lti/validate-launch';
import { createManualClock } from '../manual-clock';
import { serveJwks } from './platform-fixtures';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const registration = (id: number): RegisteredPlatform => ({
  id,
  issuer: `https://lms-${id}.test`,
  clientId: 'portal',
  deploymentIds: ['1'],
  organisationId: 1,
});

/** A launch at platform `platform` signed with `key` (header kid `kid`): accepted or not. */
function launcher(keysFor: ReturnType<typeof createPlatformKeys>) {
  return async (platform: number, key: SigningKey, kid = key.kid) => {
    const token = await new SignJWT({ sub: 'u' }).setProtectedHeader({ alg: 'RS256', kid }).sign(key.privateKey);
    try {
      await jwtVerify(token, keysFor(registration(platform)));
      return 'accepted';
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) return 'unknown kid';
      throw error;
    }
  };
}

/**
 * The platforms' JWKS as the launch check fetches them (issue #22 point 5): a launch signed with a
 * kid we have not seen refetches that platform's JWKS at most once a minute, each platform on its
 * own minute. Real JWKS servers on 127.0.0.1 count the requests; the test moves a manual clock
 * instead of waiting a minute.
 */
describe('platform JWKS: refetch on an unknown kid at most once a minute per platform', () => {
  let first: SigningKey;
  let rotated: SigningKey;
  let other: SigningKey;
  let firstPublishes: JWK[];
  let lms1: Awaited<ReturnType<typeof serveJwks>>;
  let lms2: Awaited<ReturnType<typeof serveJwks>>;
  const outbound = createOutboundClient({ policy: { development: true } });

  before(async () => {
    [first, rotated, other] = await Promise.all([signingKey('k1'), signingKey('k2'), signingKey('other-1')]);
    firstPublishes = [first.publicJwk];
    lms1 = await serveJwks(() => firstPublishes);
    lms2 = await serveJwks(() => [other.publicJwk]);
  });
  after(async () => {
    await outbound.close();
    await lms1.close();
    await lms2.close();
  });

  test('a new kid is fetched on the first launch a minute after the last fetch, made-up kids cost one request a minute', async () => {
    const urls = new Map([
      [1, lms1.url],
      [2, lms2.url],
    ]);
    const clock = createManualClock();
    const keysFor = createPlatformKeys(outbound, async (id) => urls.get(id) ?? null, clock);
    const launch = launcher(keysFor);
    const elapse = (ms: number) => clock.advance(ms);

    assert.equal(UNKNOWN_KID_REFETCH_MS, 60_000);
    assert.equal(await launch(1, first), 'accepted');
    assert.equal(await launch(2, other), 'accepted');
    assert.deepEqual([lms1.requests(), lms2.requests()], [1, 1]);

    // Platform 1 rotates its key; launches signed with it come in seconds later.
    firstPublishes = [first.publicJwk, rotated.publicJwk];
    await elapse(10_000);
    assert.equal(await launch(1, rotated), 'unknown kid');
    await elapse(20_000);
    for (let i = 0; i < 5; i++) assert.equal(await launch(1, first, `made-up-${i}`), 'unknown kid');
    await elapse(29_999);
    assert.equal(await launch(1, rotated), 'unknown kid');
    assert.equal(lms1.requests(), 1, 'no refetch within the minute');

    // A minute after the last fetch: the unknown kid refetches, and the new key is there.
    await elapse(1);
    assert.equal(await launch(1, rotated), 'accepted');
    assert.equal(lms1.requests(), 2);
    // Platform 2's minute is its own: its first unknown kid refetches although platform 1 just did.
    assert.equal(await launch(2, other, 'made-up'), 'unknown kid');
    assert.equal(lms2.requests(), 2);

    await elapse(1_000);
    assert.equal(await launch(1, first), 'accepted', 'known keys need no fetch');
    assert.equal(await launch(1, first, 'made-up-again'), 'unknown kid');
    assert.equal(await launch(2, other, 'made-up-again'), 'unknown kid');
    assert.deepEqual([lms1.requests(), lms2.requests()], [2, 2]);

    await elapse(UNKNOWN_KID_REFETCH_MS);
    assert.equal(await launch(1, first, 'made-up-later'), 'unknown kid');
    assert.deepEqual([lms1.requests(), lms2.requests()], [3, 2]);
  });

  test('launches arriving together with a new kid fetch the set once', async () => {
    const clock = createManualClock();
    const keysFor = createPlatformKeys(outbound, async () => lms2.url, clock);
    const launch = launcher(keysFor);
    const before = lms2.requests();
    assert.equal(await launch(2, other), 'accepted');
    await clock.advance(UNKNOWN_KID_REFETCH_MS);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => launch(2, other, `new-${i}`)));
    assert.deepEqual(answers, Array(5).fill('unknown kid'));
    assert.equal(lms2.requests() - before, 2, 'the first fetch and one refetch');
  });
});
