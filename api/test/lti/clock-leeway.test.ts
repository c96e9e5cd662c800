import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createLocalJWKSet } from 'jose';
import { ConfigError, loadConfig } from '../../src/config';
import { validateLaunch, type LaunchStores, type RegisteredPlatform } from '../../src/lti/validate-launch';
import { buildTestApp, type TestApp } from '../helper';
import { ltiLaunch, registerPlatform } from './lti-fixtures';
import { createTestPlatform, serveJwks, signLaunch, type TestPlatform } from './platform-fixtures';

/**
 * LTI_CLOCK_LEEWAY_SECONDS (issue #22 point 5): how far a platform's clock may be off ours on a
 * launch token's exp and iat. At the validator with a fixed clock (exactly at the boundary), and
 * through the app, that the setting reaches the launch route.
 */
describe('LTI clock leeway', () => {
  let platform: TestPlatform;

  before(async () => {
    platform = await createTestPlatform();
  });

  describe('LTI_CLOCK_LEEWAY_SECONDS in the environment', () => {
    test('defaults to 60 s and takes 0 to 600', () => {
      assert.equal(loadConfig({}).ltiClockLeewaySeconds, 60);
      assert.equal(loadConfig({ LTI_CLOCK_LEEWAY_SECONDS: '0' }).ltiClockLeewaySeconds, 0);
      assert.equal(loadConfig({ LTI_CLOCK_LEEWAY_SECONDS: '600' }).ltiClockLeewaySeconds, 600);
    });

    for (const bad of ['601', '-1', 'a minute']) {
      test(`refuses ${JSON.stringify(bad)}, naming the variable`, () => {
        assert.throws(
          () => loadConfig({ LTI_CLOCK_LEEWAY_SECONDS: bad }),
          (error: unknown) =>
            error instanceof ConfigError && /LTI_CLOCK_LEEWAY_SECONDS/.test(error.message),
        );
      });
    }
  });

  describe('the validator at the boundary', () => {
    const registered = (): RegisteredPlatform => ({
      id: 3,
      issuer: platform.issuer,
      clientId: platform.clientId,
      deploymentIds: [platform.deploymentId],
      organisationId: 1,
    });
    // A fixed "now" on a whole second, so `exp`/`iat` sit exactly on the boundary.
    const now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const nowSeconds = now.getTime() / 1000;

    async function launchAt(skewSeconds: number, times: { iat: number; exp: number }) {
      const state = randomBytes(24).toString('base64url');
      const nonce = randomBytes(24).toString('base64url');
      let used = false;
      const stores: LaunchStores = {
        consumeState: async (s) => {
          if (s !== state || used) return null;
          used = true;
          return { nonce, platformId: 3 };
        },
        platform: async () => registered(),
        keys: () => createLocalJWKSet({ keys: [platform.publicJwk] }),
      };
      const idToken = await signLaunch(platform, { nonce, ...times });
      const result = await validateLaunch({ idToken, state }, stores, { now, skewSeconds });
      return result.ok ? 'accepted' : result.reason;
    }

    for (const leeway of [0, 60, 600]) {
      test(`${leeway} s: exp up to ${leeway} s past and iat up to ${leeway} s ahead pass, a second more does not`, async () => {
        const iat = nowSeconds - leeway - 30;
        assert.equal(await launchAt(leeway, { iat, exp: nowSeconds - leeway + 1 }), 'accepted');
        assert.equal(await launchAt(leeway, { iat, exp: nowSeconds - leeway }), 'expired');
        const exp = nowSeconds + leeway + 300;
        assert.equal(await launchAt(leeway, { iat: nowSeconds + leeway, exp }), 'accepted');
        assert.equal(await launchAt(leeway, { iat: nowSeconds + leeway + 1, exp }), 'claim_iat');
      });
    }
  });

  describe('the launch route uses the setting', () => {
    let t: TestApp;
    let jwks: Awaited<ReturnType<typeof serveJwks>>;

    before(async () => {
      jwks = await serveJwks(() => [platform.publicJwk]);
      t = await buildTestApp({ ltiClockLeewaySeconds: 300 });
      await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
    });
    after(async () => {
      await t.close();
      await jwks.close();
    });

    test('at 300 s a platform clock 2 minutes ahead passes (the default 60 s would refuse it), 6 minutes does not', async () => {
      const launchAhead = (seconds: number) => {
        const iat = Math.floor(Date.now() / 1000) + seconds;
        return ltiLaunch(t.app, platform, { iat, exp: iat + 300 });
      };
      const accepted = await launchAhead(120);
      assert.equal(accepted.pathname, '/lti/launch', accepted.toString());
      const refused = await launchAhead(360);
      assert.equal(refused.pathname, '/lti/error');
      assert.equal(refused.searchParams.get('error'), 'INVALID_CLAIMS');
    });
  });
});
