import { randomUUID } from 'node:crypto';
import type { LtiPlatformInput } from '@portal/contract';
import { account, type TestApp } from '../../../../helper';
import {
  createTestPlatform,
  serveJwks,
  type TestPlatform,
} from '../../../../lti/platform-fixtures';
import { loginQuery, ltiLaunchRequest, registerPlatform } from '../../../../lti/lti-fixtures';
import type { Fixture } from '../../../../security/suite-shapes';

/**
 * The LTI routes for the auth matrix (api/test/security): shapes are in security/suite-shapes.ts.
 * The public tool routes answer redirects, so their control says what success looks like; the
 * platform registration routes are for global administrators only (no organisation scope: a
 * registration decides which organisation a platform's users join).
 */
const sysAdmin = account('sys admin');

/** A valid registration body with a fresh client id (issuer and client id are unique together). */
export function platformInput(
  organisationId: number,
  overrides: Partial<LtiPlatformInput> = {},
): LtiPlatformInput {
  const clientId = `client-${randomUUID()}`;
  return {
    issuer: 'https://lms.example.test',
    clientId,
    authLoginUrl: 'https://lms.example.test/auth',
    accessTokenUrl: 'https://lms.example.test/token',
    jwksUrl: 'https://lms.example.test/jwks',
    deploymentIds: ['deployment-1'],
    organisationId,
    verifiesEmail: true,
    ...overrides,
  };
}

const redirectTo =
  (path: string) => (res: { statusCode: number; headers: Record<string, unknown> }) =>
    res.statusCode === 302 &&
    typeof res.headers.location === 'string' &&
    new URL(res.headers.location).pathname === path;

export function ltiFixtures(app: () => TestApp): Record<string, Fixture> {
  let setup: Promise<{ platform: TestPlatform; organisation: number }> | null = null;
  const ctx = () =>
    (setup ??= (async () => {
      const { db } = app();
      const organisation = (
        await db.query<{ id: number }>("select id from organisations where name = 'Demo Hospital'")
      ).rows[0]!.id;
      const platform = await createTestPlatform('https://matrix-lms.test', 'matrix-client');
      const jwks = await serveJwks(() => [platform.publicJwk]);
      await registerPlatform(db, platform, jwks.url, organisation);
      return { platform, organisation };
    })());

  const freshPlatform = async () => {
    const { organisation } = await ctx();
    const res = await app().db.query<{ id: number }>(
      `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
                                  deployment_ids, organisation_id)
       values ('https://matrix-other.test', $1, 'https://matrix-other.test/auth',
               'https://matrix-other.test/token', 'https://matrix-other.test/jwks', '{d}', $2)
       returning id`,
      [`client-${randomUUID()}`, organisation],
    );
    return res.rows[0]!.id;
  };

  return {
    'GET /api/lti/login': {
      build: async () => ({ url: `/api/lti/login?${loginQuery((await ctx()).platform)}` }),
      succeeded: (res) => res.statusCode === 302,
    },
    'POST /api/lti/login': {
      build: async () => ({
        url: '/api/lti/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: loginQuery((await ctx()).platform).toString(),
      }),
      succeeded: (res) => res.statusCode === 302,
    },
    'POST /api/lti/launch': {
      // A fresh login and a signed id_token of the Demo Hospital learner each time.
      build: async () =>
        ltiLaunchRequest(app().app, (await ctx()).platform, {
          sub: 'matrix-learner',
          email: 'learner@demo.test',
        }),
      succeeded: redirectTo('/lti/launch'),
    },
    'GET /api/lti/jwks': { build: async () => ({ url: '/api/lti/jwks' }) },
    'GET /api/v1/lti/platform': {
      actor: sysAdmin,
      build: async () => ({ url: '/api/v1/lti/platform' }),
    },
    'POST /api/v1/lti/platform': {
      actor: sysAdmin,
      build: async () => ({
        url: '/api/v1/lti/platform',
        payload: { ...platformInput((await ctx()).organisation) },
      }),
    },
    'GET /api/v1/lti/platform/:id': {
      actor: sysAdmin,
      build: async () => ({ url: `/api/v1/lti/platform/${await freshPlatform()}` }),
    },
    'PUT /api/v1/lti/platform/:id': {
      actor: sysAdmin,
      build: async () => ({
        url: `/api/v1/lti/platform/${await freshPlatform()}`,
        payload: { ...platformInput((await ctx()).organisation) },
      }),
    },
    'DELETE /api/v1/lti/platform/:id': {
      actor: sysAdmin,
      build: async () => ({ url: `/api/v1/lti/platform/${await freshPlatform()}` }),
    },
  };
}
