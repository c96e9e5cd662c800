import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import type { App } from '../../../src/app';
import type { LtiBrokerConfig } from '../../../src/config';
import type { Queryable } from '../../../src/db/driver';
import { ltiLaunchRequest, registerPlatform } from '../../lti/lti-fixtures';
import { createTestPlatform, serveJwks, type TestPlatform } from '../../lti/platform-fixtures';
import { hostileText } from '../../security/fuzz-arbitraries';
import { fuzzer, type Fixture, type Fuzzer } from '../../security/suite-shapes';

/**
 * The launch sign-in broker's routes for the security suites (api/test/security): the auth
 * matrix and the fuzz suite configure their app with BROKER, and these build a launch of the
 * Demo Hospital learner whose binding cookie, code and tokens each request needs.
 */
export const BROKER: LtiBrokerConfig = {
  clientId: 'portal-identity',
  clientSecret: 'suite-broker-secret-0123456789',
  alias: 'lti',
};
/** The suites' OIDC issuer (helper.ts TEST_ISSUER) + the alias. */
const REDIRECT_URI = 'http://identity.test/realms/main/broker/lti/endpoint';

interface Suite {
  app: App;
  db: Queryable;
}

let setup: Promise<TestPlatform> | null = null;
const platformOf = (t: Suite) =>
  (setup ??= (async () => {
    const platform = await createTestPlatform(
      'https://broker-suite-lms.test',
      'broker-suite-client',
    );
    const jwks = await serveJwks(() => [platform.publicJwk]);
    await registerPlatform(t.db, platform, jwks.url, 'Demo Hospital');
    return platform;
  })());

/** A fresh launch of the Demo Hospital learner: its id and the browser's binding cookie. */
async function launch(t: Suite) {
  const req = await ltiLaunchRequest(t.app, await platformOf(t), {
    sub: 'broker-suite-learner',
    email: 'learner@demo.test',
  });
  const res = await t.app.inject({ method: 'POST', ...req });
  const launchId = new URL(res.headers.location as string).searchParams.get('launchId')!;
  const cookie = res.cookies.find((c) => c.name === 'lti_broker_binding')!.value;
  return { launchId, cookie };
}

function authorizeQuery(launchId: string, challenge: string) {
  return new URLSearchParams({
    client_id: BROKER.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile email',
    state: 'suite',
    nonce: 'suite',
    login_hint: launchId,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
}

/** A launch spent for a code; with its PKCE verifier. */
async function code(t: Suite) {
  const { launchId, cookie } = await launch(t);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/lti/broker/auth?${authorizeQuery(launchId, challenge)}`,
    cookies: { lti_broker_binding: cookie },
  });
  return { code: new URL(res.headers.location as string).searchParams.get('code')!, verifier };
}

const tokenForm = (value: string, verifier: string) =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    code: value,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: BROKER.clientId,
    client_secret: BROKER.clientSecret,
  }).toString();

async function accessToken(t: Suite): Promise<string> {
  const { code: value, verifier } = await code(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/lti/broker/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: tokenForm(value, verifier),
  });
  return res.json<{ access_token: string }>().access_token;
}

export function brokerFixtures(t: () => Suite): Record<string, Fixture> {
  return {
    'GET /api/lti/broker/.well-known/openid-configuration': {
      build: async () => ({ url: '/api/lti/broker/.well-known/openid-configuration' }),
    },
    'GET /api/lti/broker/certs': { build: async () => ({ url: '/api/lti/broker/certs' }) },
    'GET /api/lti/broker/auth': {
      build: async () => {
        const { launchId, cookie } = await launch(t());
        return {
          url: `/api/lti/broker/auth?${authorizeQuery(launchId, 'c'.repeat(43))}`,
          headers: { cookie: `lti_broker_binding=${cookie}` },
        };
      },
      succeeded: (res) =>
        res.statusCode === 302 &&
        new URL(res.headers.location as string).searchParams.get('code') !== null,
    },
    'POST /api/lti/broker/token': {
      build: async () => {
        const { code: value, verifier } = await code(t());
        return {
          url: '/api/lti/broker/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: tokenForm(value, verifier),
        };
      },
    },
    'GET /api/lti/broker/userinfo': {
      ownBearer: true,
      build: async () => ({
        url: '/api/lti/broker/userinfo',
        headers: { authorization: `Bearer ${await accessToken(t())}` },
      }),
    },
    'POST /api/lti/broker/userinfo': {
      ownBearer: true,
      build: async () => ({
        url: '/api/lti/broker/userinfo',
        headers: { authorization: `Bearer ${await accessToken(t())}` },
      }),
    },
  };
}

const hostile = hostileText([
  '',
  ' ',
  '\u0000',
  "'; drop table lti_broker_codes; --",
  'x'.repeat(600),
]);
const tokenField = fc.constantFrom(
  'grant_type',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
);

/** The broker's POST routes for the fuzz suite: real codes with fields changed, and anything. */
export const brokerFuzzers: Record<string, Fuzzer> = {
  'POST /api/lti/broker/token': fuzzer({
    input: fc.record({
      real: fc.boolean(),
      changed: fc.dictionary(tokenField, hostile, { maxKeys: 2 }),
      basic: fc.option(hostile, { nil: undefined }),
      json: fc.boolean(),
    }),
    async request(ctx, input) {
      const real = input.real ? await code(ctx.t) : null;
      const base = real
        ? Object.fromEntries(new URLSearchParams(tokenForm(real.code, real.verifier)))
        : {};
      const fields = { ...base, ...input.changed };
      const headers: Record<string, string> = {
        'content-type': input.json ? 'application/json' : 'application/x-www-form-urlencoded',
      };
      if (input.basic !== undefined)
        headers.authorization = `Basic ${Buffer.from(input.basic).toString('base64')}`;
      return {
        method: 'POST',
        url: '/api/lti/broker/token',
        headers,
        body: input.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
      };
    },
  }),
  'POST /api/lti/broker/userinfo': fuzzer({
    input: fc.record({
      real: fc.boolean(),
      token: hostile,
      scheme: fc.constantFrom('Bearer ', 'bearer ', 'Basic ', ''),
    }),
    async request(ctx, input) {
      const token = input.real ? await accessToken(ctx.t) : input.token;
      return {
        method: 'POST',
        url: '/api/lti/broker/userinfo',
        headers: {
          authorization: `${input.scheme}${token}`
            .replace(/[\r\n]/g, '')
            .split(String.fromCharCode(0))
            .join(''),
        },
      };
    },
  }),
};
