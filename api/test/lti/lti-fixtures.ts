import assert from 'node:assert/strict';
import type { Queryable } from '../../src/db/driver';
import type { App } from '../../src/app';
import { signLaunch, type LaunchShape, type TestPlatform } from './platform-fixtures';

/**
 * A registration of `platform` for the organisation, straight in SQL; answers its id. The suites
 * launch the demo data's users by their e-mail, so the registration is marked "platform verifies
 * e-mail addresses" unless `verifiesEmail` is false (the linking rules' own tests).
 */
export async function registerPlatform(
  db: Queryable,
  platform: TestPlatform,
  jwksUrl: string,
  organisation: string | number,
  { verifiesEmail = true }: { verifiesEmail?: boolean } = {},
): Promise<number> {
  const res = await db.query<{ id: number }>(
    `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
                                deployment_ids, organisation_id, verifies_email)
     values ($1, $2, $3, $4, $5, $6::text[],
             case when $7::text ~ '^[0-9]+$' then $7::integer
                  else (select id from organisations where name = $7::text) end, $8)
     returning id`,
    [
      platform.issuer,
      platform.clientId,
      `${platform.issuer}/auth?existing=1`,
      `${platform.issuer}/token`,
      jwksUrl,
      [platform.deploymentId],
      String(organisation),
      verifiesEmail,
    ],
  );
  return res.rows[0]!.id;
}

export const TOOL_LAUNCH_URL = 'http://localhost:8080/api/lti/launch';

export function loginQuery(platform: TestPlatform, extra: Record<string, string> = {}) {
  return new URLSearchParams({
    iss: platform.issuer,
    login_hint: 'user-hint-1',
    target_link_uri: TOOL_LAUNCH_URL,
    lti_message_hint: 'message-hint-1',
    client_id: platform.clientId,
    lti_deployment_id: platform.deploymentId,
    ...extra,
  });
}

/** The OIDC login at the tool: answers the state and nonce it sent the browser to the platform with. */
export async function ltiLogin(app: App, platform: TestPlatform) {
  const res = await app.inject({ method: 'GET', url: `/api/lti/login?${loginQuery(platform)}` });
  assert.equal(res.statusCode, 302, res.body);
  const location = new URL(res.headers.location as string);
  const state = location.searchParams.get('state');
  const nonce = location.searchParams.get('nonce');
  assert.ok(state && nonce, 'state and nonce in the redirect');
  const cookie = res.cookies.find((c) => c.name.startsWith('lti_state_'));
  return { state, nonce, location, cookie, response: res };
}

/** The platform's form post of a signed id_token, after a fresh login. */
export async function ltiLaunchRequest(
  app: App,
  platform: TestPlatform,
  shape: Partial<LaunchShape> = {},
) {
  const { state, nonce } = await ltiLogin(app, platform);
  const idToken = await signLaunch(platform, { nonce, ...shape });
  return {
    url: '/api/lti/launch',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ id_token: idToken, state }).toString(),
  };
}

/** Login and launch; answers the redirect's URL. */
export async function ltiLaunch(
  app: App,
  platform: TestPlatform,
  shape: Partial<LaunchShape> = {},
) {
  const req = await ltiLaunchRequest(app, platform, shape);
  const res = await app.inject({ method: 'POST', ...req });
  assert.equal(res.statusCode, 302, res.body);
  return new URL(res.headers.location as string);
}
