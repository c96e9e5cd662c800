import { createHash, randomBytes } from 'node:crypto';
import { LTI_REGISTRATION_TOKEN_TTL_HOURS, type LtiPlatform } from '@portal/contract';
import type { Queryable } from '../db/driver';
import type { PlatformEndpoints, RegisteredClient } from './lti-types';
import { findPlatformIn } from './lti-repository';
import { SYSTEM_ACTOR, type AuditActor, createAuditRepository } from './audit-repository';

/** 32 random bytes, base64url: what the registration URL carries. */
export const PORTAL_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Tries a registration URL allows; the third failure spends it. */
export const LTI_REGISTRATION_MAX_ATTEMPTS = 3;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export type RegistrationOutcome =
  { ok: true; platform: LtiPlatform } | { ok: false; reason: 'token' | 'other_organisation' };

export function createLtiRegistrationRepository(q: Queryable) {
  return {
    /**
     * A new single-use token for registering a platform for `organisationId`; null when the
     * organisation does not exist. Only the token's hash is stored.
     */
    async createToken(
      organisationId: number,
      actor: AuditActor,
    ): Promise<{ token: string; expiresAt: string } | null> {
      const token = randomBytes(32).toString('base64url');
      const res = await q.query<{ expires_at: Date | string }>(
        `insert into lti_registration_tokens (token_hash, organisation_id, created_by, expires_at)
         select $1, o.id, $3, now() + make_interval(hours => $4)
           from organisations o where o.id = $2
         returning expires_at`,
        [hashOf(token), organisationId, actor.id, LTI_REGISTRATION_TOKEN_TTL_HOURS],
      );
      const row = res.rows[0];
      if (!row) return null;
      // Long-expired tokens are of no use to anyone: swept whenever a new one is made.
      await q.query(
        `delete from lti_registration_tokens where expires_at < now() - interval '7 days'`,
      );
      return { token, expiresAt: new Date(row.expires_at).toISOString() };
    },

    /**
     * Counts one try of the token before the platform is called; false when the token is
     * unknown, used, expired or has had its tries. Counted first (not after a failure), so
     * parallel tries cannot all slip in while the first one is still waiting for the platform.
     */
    async claimAttempt(token: string): Promise<boolean> {
      const res = await q.query(
        `update lti_registration_tokens set attempts = attempts + 1
          where token_hash = $1 and used_at is null and expires_at > now()
            and attempts < $2`,
        [hashOf(token), LTI_REGISTRATION_MAX_ATTEMPTS],
      );
      return res.rowCount > 0;
    },

    /**
     * Consumes the token and stores the registration (run it in one transaction): the platform row by
     * issuer + client id (a re-registration updates its endpoints and adds the deployment), and
     * an audit entry in the name of the administrator who made the token. Two registrations
     * racing with one token: the first consumes it, the second stores nothing.
     */
    async register(
      token: string,
      endpoints: PlatformEndpoints,
      client: RegisteredClient,
    ): Promise<RegistrationOutcome> {
      const claimed = await q.query<{ organisation_id: number; created_by: string | null }>(
        `update lti_registration_tokens set used_at = now()
        where token_hash = $1 and used_at is null and expires_at > now()
        returning organisation_id, created_by`,
        [hashOf(token)],
      );
      const claim = claimed.rows[0];
      if (!claim) return { ok: false, reason: 'token' };
      const actorRow = await q.query<{
        id: string;
        first_name: string;
        last_name: string;
        email: string;
      }>('select id, first_name, last_name, email from users where id = $1', [claim.created_by]);
      const a = actorRow.rows[0];
      const actor: AuditActor = a
        ? { id: a.id, firstName: a.first_name, lastName: a.last_name, email: a.email }
        : SYSTEM_ACTOR;

      const existing = await q.query<{ id: number; organisation_id: number }>(
        `select id, organisation_id from lti_platforms
        where issuer = $1 and client_id = $2 for update`,
        [endpoints.issuer, client.clientId],
      );
      const deployments = client.deploymentId ? [client.deploymentId] : [];
      const found = existing.rows[0];
      let id: number;
      let before: LtiPlatform | null = null;
      if (found) {
        // A client id another organisation registered stays theirs: moving it would move
        // that organisation's platform users with it.
        if (found.organisation_id !== claim.organisation_id) {
          throw new OtherOrganisation();
        }
        before = (await findPlatformIn(q, found.id))!;
        await q.query(
          `update lti_platforms
            set auth_login_url = $2, access_token_url = $3, jwks_url = $4,
                deployment_ids = array(select distinct unnest(deployment_ids || $5::text[])),
                -- A platform that names no audience leaves the one an administrator entered.
                token_audience = coalesce($6, token_audience),
                -- New endpoints are a platform no administrator vouched for yet (issue #22).
                verifies_email = false, updated_at = now()
          where id = $1`,
          [
            found.id,
            endpoints.authorizationEndpoint,
            endpoints.tokenEndpoint,
            endpoints.jwksUri,
            deployments,
            endpoints.authorizationServer,
          ],
        );
        id = found.id;
      } else {
        const inserted = await q.query<{ id: number }>(
          `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url,
                                    jwks_url, deployment_ids, organisation_id, token_audience)
         values ($1, $2, $3, $4, $5, $6::text[], $7, $8) returning id`,
          [
            endpoints.issuer,
            client.clientId,
            endpoints.authorizationEndpoint,
            endpoints.tokenEndpoint,
            endpoints.jwksUri,
            deployments,
            claim.organisation_id,
            endpoints.authorizationServer,
          ],
        );
        id = inserted.rows[0]!.id;
      }
      await q.query('update lti_registration_tokens set platform_id = $2 where token_hash = $1', [
        hashOf(token),
        id,
      ]);
      const after = (await findPlatformIn(q, id))!;
      await createAuditRepository(q).record({
        actor,
        action: before ? 'update' : 'create',
        entityType: 'lti_platform',
        entityId: id,
        organisationId: after.organisationId,
        before,
        after,
      });
      return { ok: true, platform: after };
    },
  };
}

/**
 * The client id is registered to another organisation. Thrown, so the unit of work rolls back and
 * the token stays unused; the registration service answers it as `other_organisation`.
 */
export class OtherOrganisation extends Error {}

export type LtiRegistrationRepository = ReturnType<typeof createLtiRegistrationRepository>;
