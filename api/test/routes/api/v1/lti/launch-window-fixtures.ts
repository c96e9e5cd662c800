import fc from 'fast-check';
import type { TestApp } from '../../../../helper';
import { xsrfHeaders } from '../../../../helper';
import {
  frameLaunch,
  launchTicket,
  storageCheck,
  storageLogin,
} from '../../../../lti/frame-launch';
import { LAUNCH_BROWSER_COOKIE } from '../../../../../src/lti/launch-browser-cookie';
import { anyJson, hostileText } from '../../../../security/fuzz-arbitraries';
import {
  fuzzer,
  type FuzzContext,
  type Fixture,
  type Fuzzer,
} from '../../../../security/suite-shapes';
import { rosterPlatform } from './roster-sync-fixtures';

/**
 * The "Open in a new window" routes and the frame origins (issue #22 point 2) for the auth matrix
 * and the fuzz suite (api/test/security). All public: what stands for the browser is a secret it
 * holds (cookie, frame key, ticket), so each control uses a fresh launch's own.
 */
export function launchWindowFixtures(app: () => TestApp): Record<string, Fixture> {
  const platform = rosterPlatform(app, 'https://matrix-frame.test', 'frame-client');
  const launch = async () => frameLaunch(app().app, await platform());
  return {
    'POST /api/lti/launch/storage': {
      build: async () => {
        const { state, idToken } = await storageLogin(app().app, await platform());
        const { url, headers, payload } = storageCheck(state, idToken, state);
        return { url, headers, payload };
      },
    },
    'GET /api/lti/frame-origins': {
      build: async () => ({ url: '/api/lti/frame-origins' }),
    },
    'GET /api/lti/launch-window/:launchId': {
      build: async () => {
        const { launchId, cookie } = await launch();
        return {
          url: `/api/lti/launch-window/${launchId}`,
          headers: { cookie: `${LAUNCH_BROWSER_COOKIE}=${cookie.value}` },
        };
      },
    },
    'POST /api/lti/launch-window/:launchId/ticket': {
      build: async () => {
        const { launchId, frameKey } = await launch();
        return { url: `/api/lti/launch-window/${launchId}/ticket`, payload: { frameKey } };
      },
    },
    'POST /api/lti/launch-window/redeem': {
      build: async () => ({
        url: '/api/lti/launch-window/redeem',
        headers: xsrfHeaders(),
        payload: { ticket: await launchTicket(app().app, await launch()) },
      }),
    },
  };
}

const hostile = hostileText([
  '',
  ' ',
  '\u0000',
  "'; drop table lti_launch_tickets; --",
  'x'.repeat(300),
]);
const json = anyJson(hostile, { maxDepth: 2, integer: false });
/** `@own` is the right secret, `@other` another launch's; else anything. */
const secret = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('@own', '@other') },
  fc.constantFrom('A'.repeat(43), 'A'.repeat(44), '%00'),
  json,
);
const launchRef = fc.oneof(
  { weight: 4, arbitrary: fc.constant('@fresh') },
  fc.constantFrom('00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%2e%2e'),
  fc.uuid(),
);

let platform: ReturnType<typeof rosterPlatform> | null = null;
async function launchOf(ctx: FuzzContext) {
  platform ??= rosterPlatform(() => ctx.t, 'https://fuzz-frame.test', 'frame-fuzz-client');
  return frameLaunch(ctx.t.app, await platform());
}
const pick = (ref: unknown, own: string, other: string) =>
  ref === '@own' ? own : ref === '@other' ? other : ref;

export const launchWindowFuzzers: Record<string, Fuzzer> = {
  'POST /api/lti/launch/storage': fuzzer({
    input: fc.record({
      stored: fc.oneof(fc.constant(null), secret),
      token: fc.oneof({ weight: 3, arbitrary: fc.constant('@own') }, json),
      raw: fc.option(hostile),
    }),
    async request(ctx, input) {
      platform ??= rosterPlatform(() => ctx.t, 'https://fuzz-frame.test', 'frame-fuzz-client');
      const mine = await storageLogin(ctx.t.app, await platform());
      const other = await storageLogin(ctx.t.app, await platform());
      const stored = input.stored === null ? null : pick(input.stored, mine.state, other.state);
      const idToken = input.token === '@own' ? mine.idToken : input.token;
      const body =
        input.raw ?? JSON.stringify({ id_token: idToken, state: mine.state, stored_state: stored });
      return {
        method: 'POST',
        url: '/api/lti/launch/storage',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(body),
      };
    },
  }),
  'POST /api/lti/launch-window/:launchId/ticket': fuzzer({
    input: fc.record({ launch: launchRef, frameKey: secret, raw: fc.option(hostile) }),
    async request(ctx, input) {
      const [mine, other] = [await launchOf(ctx), await launchOf(ctx)];
      const launchId = input.launch === '@fresh' ? mine.launchId : input.launch;
      const body =
        input.raw ??
        JSON.stringify({ frameKey: pick(input.frameKey, mine.frameKey, other.frameKey) });
      return {
        method: 'POST',
        url: `/api/lti/launch-window/${encodeURIComponent(launchId)}/ticket`,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(body),
      };
    },
  }),
  'POST /api/lti/launch-window/redeem': fuzzer({
    input: fc.record({ ticket: secret, raw: fc.option(hostile), xsrf: fc.boolean() }),
    async request(ctx, input) {
      const own = await launchTicket(ctx.t.app, await launchOf(ctx));
      const spent = await launchTicket(ctx.t.app, await launchOf(ctx));
      await ctx.t.app.inject({
        method: 'POST',
        url: '/api/lti/launch-window/redeem',
        headers: xsrfHeaders(),
        payload: { ticket: spent },
      });
      const body = input.raw ?? JSON.stringify({ ticket: pick(input.ticket, own, spent) });
      return {
        method: 'POST',
        url: '/api/lti/launch-window/redeem',
        headers: { ...(input.xsrf ? xsrfHeaders() : {}), 'content-type': 'application/json' },
        body: Buffer.from(body),
      };
    },
  }),
};
