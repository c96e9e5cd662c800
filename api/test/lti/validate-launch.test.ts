import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import { createLocalJWKSet } from 'jose';
import { createOutboundClient } from '../../src/lib/outbound-http';
import { createPlatformKeys } from '../../src/lti/platform-keys';
import {
  DEEP_LINKING_CLAIM,
  LTI_CLAIM,
  portalRoleFor,
  validateLaunch,
  type LaunchStores,
  type RegisteredPlatform,
} from '../../src/lti/validate-launch';
import {
  createTestPlatform,
  hs256Launch,
  ROLES,
  signLaunch,
  unsignedLaunch,
  type LaunchShape,
  type TestPlatform,
} from './platform-fixtures';

/**
 * The launch validator against the 1EdTech certification suite's known-bad launches (each
 * refused, with the rule that refused it) and its known-good ones (each accepted). Real RS256
 * signatures; the stores are in memory, as the validator is given them.
 */

let platform: TestPlatform;
let registered: RegisteredPlatform;

/** Login states as the login route stores them: single use. */
function memoryStores(): LaunchStores & { login(): { state: string; nonce: string } } {
  const states = new Map<string, { nonce: string; used: boolean }>();
  return {
    login() {
      const state = randomBytes(24).toString('base64url');
      const nonce = randomBytes(24).toString('base64url');
      states.set(state, { nonce, used: false });
      return { state, nonce };
    },
    async consumeState(state) {
      const s = states.get(state);
      if (!s || s.used) return null;
      s.used = true;
      return { nonce: s.nonce, platformId: registered.id };
    },
    async platform(id) {
      return id === registered.id ? registered : null;
    },
    keys: () => createLocalJWKSet({ keys: [platform.publicJwk] }),
  };
}

type Build = (p: TestPlatform, shape: LaunchShape) => Promise<string> | string;

/** One launch through a fresh login: `shape` changes the token, `build` how it is signed. */
async function launch(shape: Partial<LaunchShape> = {}, build: Build = signLaunch) {
  const stores = memoryStores();
  const { state, nonce } = stores.login();
  const idToken = await build(platform, { nonce, ...shape });
  return validateLaunch({ idToken, state }, stores);
}

async function refused(
  result: ReturnType<typeof launch>,
  error: string,
  reason: string | RegExp,
): Promise<void> {
  const r = await result;
  assert.equal(r.ok, false, 'refused');
  if (r.ok) return;
  assert.equal(r.error, error, `error code (reason ${r.reason})`);
  if (typeof reason === 'string') assert.equal(r.reason, reason);
  else assert.match(r.reason, reason);
}

const now = () => Math.floor(Date.now() / 1000);

describe('LTI launch validator', () => {
  before(async () => {
    platform = await createTestPlatform();
    registered = {
      id: 7,
      issuer: platform.issuer,
      clientId: platform.clientId,
      deploymentIds: [platform.deploymentId, 'deployment-2'],
      organisationId: 1,
    };
  });

  describe('known-bad launches (1EdTech certification suite)', () => {
    test('no kid in the header', () =>
      refused(launch({ header: { kid: undefined } }), 'INVALID_TOKEN', 'missing_kid'));

    test('a kid the platform does not publish', () =>
      refused(
        launch({ header: { kid: 'not-a-published-key' }, key: platform.strayKey }),
        'INVALID_TOKEN',
        'unknown_kid',
      ));

    test("the platform's kid, signed by another key", () =>
      refused(launch({ key: platform.strayKey }), 'INVALID_TOKEN', 'signature'));

    test('wrong LTI version', () =>
      refused(
        launch({ claims: { [`${LTI_CLAIM}version`]: '1.1' } }),
        'INVALID_LTI_MESSAGE',
        'version',
      ));

    test('missing LTI version', () =>
      refused(launch({ omit: [`${LTI_CLAIM}version`] }), 'INVALID_LTI_MESSAGE', 'version'));

    test('not a JWT', async () => {
      for (const idToken of ['not a jwt', 'a.b', 'a.b.', '', 42, null, undefined]) {
        const stores = memoryStores();
        const { state } = stores.login();
        const r = await validateLaunch({ idToken, state }, stores);
        assert.deepEqual(
          r.ok ? 'accepted' : [r.error, r.reason],
          ['INVALID_TOKEN', 'not_a_jwt'],
          String(idToken),
        );
      }
      // Three base64url parts that decode to no JSON.
      const stores = memoryStores();
      const { state } = stores.login();
      const r = await validateLaunch({ idToken: 'bm90.anNvbg.c2ln', state }, stores);
      assert.deepEqual(r.ok ? 'accepted' : r.reason, 'not_a_jwt');
    });

    test('missing message_type', () =>
      refused(
        launch({ omit: [`${LTI_CLAIM}message_type`] }),
        'INVALID_LTI_MESSAGE',
        'message_type',
      ));

    test('unknown message_type', () =>
      refused(
        launch({ claims: { [`${LTI_CLAIM}message_type`]: 'LtiSubmissionReviewRequest' } }),
        'INVALID_LTI_MESSAGE',
        'message_type',
      ));

    test('missing roles', () =>
      refused(launch({ omit: [`${LTI_CLAIM}roles`] }), 'INVALID_LTI_MESSAGE', 'roles'));

    test('roles not a list of strings', () =>
      refused(
        launch({ claims: { [`${LTI_CLAIM}roles`]: 'Learner' } }),
        'INVALID_LTI_MESSAGE',
        'roles',
      ));

    test('missing deployment_id', () =>
      refused(
        launch({ omit: [`${LTI_CLAIM}deployment_id`] }),
        'INVALID_LTI_MESSAGE',
        'deployment_id',
      ));

    test('missing resource_link.id', async () => {
      await refused(
        launch({ claims: { [`${LTI_CLAIM}resource_link`]: { title: 'no id' } } }),
        'INVALID_LTI_MESSAGE',
        'resource_link_id',
      );
      await refused(
        launch({ omit: [`${LTI_CLAIM}resource_link`] }),
        'INVALID_LTI_MESSAGE',
        'resource_link_id',
      );
    });

    test('missing sub', () => refused(launch({ omit: ['sub'] }), 'INVALID_LTI_MESSAGE', 'sub'));

    test('expired', () =>
      refused(launch({ iat: now() - 3600, exp: now() - 120 }), 'INVALID_CLAIMS', 'expired'));

    test('iat in the future (beyond the skew)', () =>
      refused(launch({ iat: now() + 600, exp: now() + 900 }), 'INVALID_CLAIMS', /^claim_iat$/));

    test('no exp or no iat', async () => {
      await refused(launch({ omit: ['exp'] }), 'INVALID_CLAIMS', 'claim_exp');
      await refused(launch({ omit: ['iat'] }), 'INVALID_CLAIMS', 'claim_iat');
    });

    test('reused nonce: the same state and token a second time', async () => {
      const stores = memoryStores();
      const { state, nonce } = stores.login();
      const idToken = await signLaunch(platform, { nonce });
      assert.equal((await validateLaunch({ idToken, state }, stores)).ok, true, 'first time');
      const again = await validateLaunch({ idToken, state }, stores);
      assert.deepEqual(again.ok ? 'accepted' : [again.error, again.reason], [
        'INVALID_STATE',
        'state_unknown_or_used',
      ]);
    });

    test("a replayed token with another login's state: nonce mismatch", async () => {
      const stores = memoryStores();
      const first = stores.login();
      const idToken = await signLaunch(platform, { nonce: first.nonce });
      assert.equal((await validateLaunch({ idToken, state: first.state }, stores)).ok, true);
      const second = stores.login();
      const r = await validateLaunch({ idToken, state: second.state }, stores);
      assert.deepEqual(r.ok ? 'accepted' : [r.error, r.reason], ['INVALID_CLAIMS', 'claim_nonce']);
    });

    test('missing nonce', () =>
      refused(launch({ omit: ['nonce'] }), 'INVALID_CLAIMS', 'claim_nonce'));

    test('unknown state, and a state cookie of another login', async () => {
      const stores = memoryStores();
      const { nonce, state } = stores.login();
      const idToken = await signLaunch(platform, { nonce });
      const unknown = await validateLaunch({ idToken, state: 'x'.repeat(40) }, stores);
      assert.deepEqual(unknown.ok ? 'accepted' : unknown.reason, 'state_unknown_or_used');
      const cookie = await validateLaunch({ idToken, state, stateCookie: 'other' }, stores);
      assert.deepEqual(cookie.ok ? 'accepted' : cookie.reason, 'state_cookie');
      const missing = await validateLaunch({ idToken, state: undefined }, stores);
      assert.deepEqual(missing.ok ? 'accepted' : missing.error, 'INVALID_STATE');
    });

    test('wrong aud', () =>
      refused(launch({ aud: 'another-tool' }), 'INVALID_CLAIMS', 'claim_aud'));

    test('several audiences without azp, or with azp of another client', async () => {
      await refused(
        launch({ aud: [platform.clientId, 'another-tool'] }),
        'INVALID_CLAIMS',
        'claim_azp',
      );
      await refused(
        launch({ aud: [platform.clientId, 'another-tool'], claims: { azp: 'another-tool' } }),
        'INVALID_CLAIMS',
        'claim_azp',
      );
    });

    test('wrong iss', () =>
      refused(launch({ claims: { iss: 'https://evil.test' } }), 'INVALID_CLAIMS', 'claim_iss'));

    test('unregistered deployment', () =>
      refused(
        launch({ claims: { [`${LTI_CLAIM}deployment_id`]: 'deployment-9' } }),
        'UNKNOWN_DEPLOYMENT',
        'deployment_id_unregistered',
      ));

    test('alg none', () => refused(launch({}, unsignedLaunch), 'INVALID_TOKEN', 'alg'));

    test('HS256 keyed with the public key', () =>
      refused(launch({}, hs256Launch), 'INVALID_TOKEN', 'alg'));

    test('deep linking request without deep_linking_settings', () =>
      refused(
        launch({
          claims: { [`${LTI_CLAIM}message_type`]: 'LtiDeepLinkingRequest' },
          omit: [`${LTI_CLAIM}resource_link`],
        }),
        'INVALID_LTI_MESSAGE',
        'deep_linking_settings',
      ));

    test('an unreachable platform key server is PLATFORM_UNAVAILABLE, not a crash', async () => {
      const stores = memoryStores();
      const { state, nonce } = stores.login();
      const idToken = await signLaunch(platform, { nonce });
      const r = await validateLaunch(
        { idToken, state },
        {
          ...stores,
          keys: () => async () => {
            throw new TypeError('fetch failed');
          },
        },
      );
      assert.deepEqual(r.ok ? 'accepted' : r.error, 'PLATFORM_UNAVAILABLE');
    });
  });

  describe('the platform keys through the guarded client', () => {
    /** A resolver that answers `address` for every name, as a hostile DNS would. */
    const answering =
      (address: string): LookupFunction =>
      (_hostname, options, callback) =>
        options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);

    for (const address of ['10.0.0.1', '169.254.169.254']) {
      test(`a JWKS URL whose name resolves to ${address} is refused, not fetched`, async () => {
        const outbound = createOutboundClient({
          policy: { development: false },
          lookup: answering(address),
        });
        const stores = memoryStores();
        const { state, nonce } = stores.login();
        const idToken = await signLaunch(platform, { nonce });
        const r = await validateLaunch(
          { idToken, state },
          {
            ...stores,
            keys: createPlatformKeys(outbound, async () => 'https://keys.lms.test/jwks'),
          },
        );
        await outbound.close();
        assert.deepEqual(r.ok ? 'accepted' : [r.error, r.reason], [
          'PLATFORM_UNAVAILABLE',
          'jwks_OUTBOUND_BLOCKED_ADDRESS',
        ]);
      });
    }
  });

  describe('known-good launches', () => {
    const accepted = async (shape: Partial<LaunchShape>) => {
      const r = await launch(shape);
      assert.ok(r.ok, r.ok ? '' : `refused: ${r.error} ${r.reason}`);
      return r.launch;
    };

    test('learner', async () => {
      const l = await accepted({ roles: [ROLES.learner] });
      assert.equal(l.messageType, 'LtiResourceLinkRequest');
      assert.equal(l.sub, 'platform-user-1');
      assert.equal(l.deploymentId, platform.deploymentId);
      assert.deepEqual(l.resourceLink, { id: 'resource-link-1', title: 'Knee, Desktop' });
      assert.deepEqual(l.custom, {
        configuration: 'radiography.lower-limb.knee',
        protocol: 'vmc-radiography',
        productId: '1',
      });
      assert.equal(l.agsEndpoint?.lineitem, 'https://lms.test/lineitems/1');
      assert.equal(l.email, 'lti.learner@lms.test');
      assert.equal(portalRoleFor(l.roles), 'learner');
    });

    test('instructor', async () => {
      const l = await accepted({ roles: [ROLES.instructor] });
      assert.equal(portalRoleFor(l.roles), 'educator');
    });

    test('teaching assistant (a sub-role of Instructor, with its principal role)', async () => {
      const l = await accepted({ roles: [ROLES.teachingAssistant, ROLES.instructor] });
      assert.deepEqual(l.roles, [ROLES.teachingAssistant, ROLES.instructor]);
      assert.equal(portalRoleFor(l.roles), 'educator');
      // Alone, the sub-role is no instructor: LTI requires the principal role beside it.
      assert.equal(portalRoleFor([ROLES.teachingAssistant]), 'learner');
    });

    test('administrator', async () => {
      const l = await accepted({ roles: [ROLES.administrator] });
      assert.equal(portalRoleFor(l.roles), 'educator');
    });

    test('no roles at all (an empty list is a roles claim)', async () => {
      const l = await accepted({ roles: [] });
      assert.equal(portalRoleFor(l.roles), 'learner');
    });

    test('several audiences with azp = our client id', async () => {
      await accepted({
        aud: ['another-tool', platform.clientId],
        claims: { azp: platform.clientId },
      });
    });

    test('second registered deployment, iat within the skew ahead', async () => {
      await accepted({
        claims: { [`${LTI_CLAIM}deployment_id`]: 'deployment-2' },
        iat: now() + 30,
      });
    });

    test('deep linking request', async () => {
      const l = await accepted({
        claims: {
          [`${LTI_CLAIM}message_type`]: 'LtiDeepLinkingRequest',
          [DEEP_LINKING_CLAIM]: {
            deep_link_return_url: 'https://lms.test/deep-link-return',
            accept_types: ['ltiResourceLink'],
          },
        },
        omit: [`${LTI_CLAIM}resource_link`],
      });
      assert.equal(l.messageType, 'LtiDeepLinkingRequest');
      assert.equal(
        l.deepLinkingSettings?.deep_link_return_url,
        'https://lms.test/deep-link-return',
      );
    });

    test('custom parameters that are no strings are dropped', async () => {
      const l = await accepted({
        claims: { [`${LTI_CLAIM}custom`]: { productId: 1, protocol: 'VR', nested: { a: 1 } } },
      });
      assert.deepEqual(l.custom, { protocol: 'VR' });
    });

    test("D2L's user id is kept from its own claim (number or digits); anything else is null", async () => {
      const claim = (user_id: unknown) => ({ claims: { 'http://www.brightspace.com': { user_id } } });
      assert.equal((await accepted(claim(12345))).brightspaceUserId, '12345');
      assert.equal((await accepted(claim('678'))).brightspaceUserId, '678');
      assert.equal((await accepted({})).brightspaceUserId, null);
      for (const bad of [0, -4, 1.5, '', '12a', '007', { id: 1 }, Number.MAX_SAFE_INTEGER + 2]) {
        assert.equal((await accepted(claim(bad))).brightspaceUserId, null, JSON.stringify(bad));
      }
    });
  });
});
