import type { Queryable } from '../db/driver';

/** Where `npm start` and the e2e stack run the learning-platform stand-in (lms/). */
export const DEFAULT_LMS_URL = 'http://localhost:8100';

/**
 * The stand-in's registrations, one client per organisation as one platform (issuer) with
 * several institutions has them: Demo Hospital's course platform and Demo Brightspace College's
 * Brightspace. The stand-in launches each of its users through their institution's client
 * (lms/src/institutions.ts), and each client's launches belong to its organisation here.
 */
export const DEMO_LTI_CLIENTS = [
  { organisation: 'Demo Hospital', clientId: 'portal-tool', deploymentId: 'demo-deployment' },
  {
    organisation: 'Demo Brightspace College',
    clientId: 'portal-tool-brightspace',
    deploymentId: 'brightspace-deployment',
    // As at Brightspace, the stand-in wants its OAuth2 audience in this client's assertions.
    tokenAudience: 'https://api.brightspace.com/auth/token',
  },
] as const;

/**
 * The learning-platform stand-in registered as an LTI 1.3 platform of the demo organisations
 * (demo data only), so its "Launch Radiography" lands in the portal's launch. Its address comes
 * from LMS_URL, which scripts/services.mjs sets for the API and the stand-in alike. A
 * registration already there (the same issuer and client id) is left as an administrator may
 * have changed it. The stand-in's users are the demo accounts with the addresses the portal
 * knows, so it is marked "platform verifies e-mail addresses" and its launches link to them.
 */
export async function seedDemoLtiPlatform(db: Queryable, lmsUrl = process.env.LMS_URL || DEFAULT_LMS_URL): Promise<void> {
  const issuer = lmsUrl.replace(/\/+$/, '');
  for (const client of DEMO_LTI_CLIENTS) {
    await db.query(
      `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url, jwks_url,
         deployment_ids, organisation_id, verifies_email, token_audience)
       select $1, $5, $2, $3, $4, array[$6::text], id, true, $8
         from organisations where lower(name) = lower($7)
       on conflict (issuer, client_id) do update set token_audience = excluded.token_audience
         -- Only fills in what registrations seeded before the field need; nothing else changes.
         where lti_platforms.token_audience is null and excluded.token_audience is not null`,
      [
        issuer,
        `${issuer}/lti/auth`,
        `${issuer}/oauth2/token`,
        `${issuer}/.well-known/jwks.json`,
        client.clientId,
        client.deploymentId,
        client.organisation,
        'tokenAudience' in client ? client.tokenAudience : null,
      ],
    );
  }
}
