import type { Queryable } from '../db/driver';

/** Where `npm start` and the e2e stack run the learning-platform stand-in (lms/). */
export const DEFAULT_LMS_URL = 'http://localhost:8100';

/**
 * The learning-platform stand-in registered as an LTI 1.3 platform of Demo Hospital (demo data
 * only), so its "Launch Radiography" lands in the portal's launch. Its address comes from LMS_URL,
 * which scripts/services.mjs sets for the API and the stand-in alike. A registration already there
 * (the same issuer and client id) is left as an administrator may have changed it.
 */
export async function seedDemoLtiPlatform(db: Queryable, lmsUrl = process.env.LMS_URL || DEFAULT_LMS_URL): Promise<void> {
  const issuer = lmsUrl.replace(/\/+$/, '');
  await db.query(
    `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
       deployment_ids, organisation_id)
     select $1, 'portal-tool', $2, $3, $4, array['demo-deployment'], id
       from organisations where lower(name) = lower('Demo Hospital')
     on conflict (issuer, client_id) do nothing`,
    [issuer, `${issuer}/lti/auth`, `${issuer}/oauth2/token`, `${issuer}/.well-known/jwks.json`],
  );
}
