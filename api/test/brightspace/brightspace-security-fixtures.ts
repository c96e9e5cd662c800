import assert from 'node:assert/strict';
import type { BrightspaceAuthStartResponse } from '@portal/contract';
import type { DemoAccount } from '@portal/contract/demo-accounts';
import { signToken, xsrfHeaders, type TestApp } from '../helper';
import { startTestBrightspace } from './brightspace-server';
import type { Fixture } from '../security/suite-shapes';

/**
 * The Brightspace routes for the auth matrix (api/test/security): shapes are in
 * security/suite-shapes.ts. The matrix app is configured with `suiteBrightspace.config`, a
 * Brightspace that runs for the whole suite. Both user routes act on the caller only (scope: self;
 * nothing to name another user with); the browser routes are public and open only with a state and
 * cookie that the signed-in user's own start handed out, so their control runs a real start first.
 */
export const suiteBrightspace = await startTestBrightspace();

export function brightspaceFixtures(app: () => TestApp): Record<string, Fixture> {
  const start = async (as: DemoAccount) => {
    const res = await app().app.inject({
      method: 'POST',
      url: '/api/v1/user/brightspace-auth',
      headers: { authorization: `Bearer ${await signToken(as.sub)}`, ...xsrfHeaders() },
      payload: { redirectPath: '/simulation' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const cookie = res.cookies.find((c) => c.name.startsWith('bs_oauth_'));
    assert.ok(cookie);
    return {
      url: res.json<BrightspaceAuthStartResponse>().url,
      cookie: `${cookie.name}=${cookie.value}`,
    };
  };
  const redirectedTo =
    (origin: string) => (res: { statusCode: number; headers: Record<string, unknown> }) =>
      res.statusCode === 302 &&
      typeof res.headers.location === 'string' &&
      new URL(res.headers.location, 'http://portal.test').origin === origin;

  return {
    'POST /api/v1/user/brightspace-auth': {
      build: async () => ({ url: '/api/v1/user/brightspace-auth', payload: { redirectPath: '/' } }),
    },
    'POST /api/v1/user/brightspace-auth-reset': {
      build: async () => ({ url: '/api/v1/user/brightspace-auth-reset' }),
    },
    'GET /api/brightspace-auth': {
      async build(as) {
        const started = await start(as);
        return { url: started.url, headers: { cookie: started.cookie } };
      },
      succeeded: redirectedTo(new URL(suiteBrightspace.url).origin),
    },
    'GET /api/brightspace-auth/callback': {
      async build(as) {
        const started = await start(as);
        const go = await app().app.inject({
          url: started.url,
          headers: { cookie: started.cookie },
        });
        const res = await fetch(go.headers.location as string, { redirect: 'manual' });
        const callback = new URL(res.headers.get('location')!);
        return {
          url: `${callback.pathname}${callback.search}`,
          headers: { cookie: started.cookie },
        };
      },
      // Linked and back on the start's redirect path: the portal's own origin.
      succeeded: (res) => res.statusCode === 302 && res.headers.location === '/simulation',
    },
  };
}
