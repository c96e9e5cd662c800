import { createHash, randomBytes } from 'node:crypto';
import { isUuid } from '@portal/contract';
import type { Db } from '../../db/driver';

/** The browser binding lives as long as a launch takes to reach the sign-in: minutes at most. */
export const BINDING_TTL_SECONDS = 300;
/** Codes are redeemed by the identity provider at once (RFC 6749 §4.1.2 advises ≤ 10 min). */
export const CODE_TTL_SECONDS = 60;


/** What is stored of a secret handed out: its SHA-256, so a database read hands out nothing. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

const newSecret = () => randomBytes(32).toString('base64url');

export type BindingRefusal = 'no_binding' | 'expired' | 'used' | 'other_launch';

export interface IssuedCode {
  userId: string;
  launchId: string;
  clientId: string;
  redirectUri: string;
  nonce: string | null;
  codeChallenge: string | null;
  scope: string;
}

/**
 * The broker's single-use secrets in the database (migration 0028), so that the authorization
 * and the token request may reach different API processes.
 */
export function createBrokerStore(q: Db) {
  return {
    /** A new binding of the browser to `launchId`; answers the cookie's value. */
    async bind(launchId: string): Promise<string> {
      const token = newSecret();
      await q.query(`delete from lti_broker_bindings where expires_at < now() - interval '1 day'`);
      await q.query(
        `insert into lti_broker_bindings (token_hash, launch_id, expires_at)
         values ($1, $2, now() + make_interval(secs => $3))`,
        [hashSecret(token), launchId, BINDING_TTL_SECONDS],
      );
      return token;
    },

    /**
     * Spends the binding `token` for the launch the authorization request names: the launch's
     * user, or why not. Any answer but `other_launch` spends it (one authorization per launch).
     */
    async spendBinding(
      token: string | undefined,
      launchId: string,
    ): Promise<{ ok: true; userId: string } | { ok: false; reason: BindingRefusal }> {
      if (!token) return { ok: false, reason: 'no_binding' };
      const tokenHash = hashSecret(token);
      const id = isUuid(launchId) ? launchId.toLowerCase() : null;
      // One statement spends it, so two requests racing with one cookie get one sign-in.
      const spent = await q.query<{ user_id: string; expired: boolean }>(
        `update lti_broker_bindings b set used_at = now()
           from lti_launches l
          where b.token_hash = $1 and b.launch_id = $2::uuid and b.used_at is null and l.id = b.launch_id
          returning l.user_id::text as user_id, b.expires_at <= now() as expired`,
        [tokenHash, id],
      );
      const row = spent.rows[0];
      if (row)
        return row.expired ? { ok: false, reason: 'expired' } : { ok: true, userId: row.user_id };
      const known = await q.query<{ same: boolean }>(
        'select launch_id = $2::uuid as same from lti_broker_bindings where token_hash = $1',
        [tokenHash, id],
      );
      const found = known.rows[0];
      if (!found) return { ok: false, reason: 'no_binding' };
      return { ok: false, reason: found.same ? 'used' : 'other_launch' };
    },

    /** A new authorization code; answers its value. */
    async issueCode(code: IssuedCode): Promise<string> {
      const value = newSecret();
      await q.query(`delete from lti_broker_codes where expires_at < now() - interval '1 day'`);
      await q.query(
        `insert into lti_broker_codes (code_hash, user_id, launch_id, client_id, redirect_uri,
                                       nonce, code_challenge, scope, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))`,
        [
          hashSecret(value),
          code.userId,
          code.launchId,
          code.clientId,
          code.redirectUri,
          code.nonce,
          code.codeChallenge,
          code.scope,
          CODE_TTL_SECONDS,
        ],
      );
      return value;
    },

    /**
     * Redeems the code when it is unused, unexpired and `accept` finds nothing wrong with its
     * grant (client, redirect URI, PKCE): answers the grant, or why not. Only a redemption spends
     * it (under a row lock, so two requests with one code get one answer); a refused request
     * changes nothing, and the verifier's 256 bits leave nothing to guess at.
     */
    async redeemCode<E extends string>(
      value: string,
      accept: (grant: IssuedCode) => E | null,
    ): Promise<{ ok: true; grant: IssuedCode } | { ok: false; error: E | 'invalid_code' }> {
      return q.transaction(async (tx) => {
        const res = await tx.query<{
          user_id: string;
          launch_id: string;
          client_id: string;
          redirect_uri: string;
          nonce: string | null;
          code_challenge: string | null;
          scope: string;
        }>(
          `select user_id::text, launch_id::text, client_id, redirect_uri, nonce, code_challenge, scope
             from lti_broker_codes
            where code_hash = $1 and used_at is null and expires_at > now()
            for update`,
          [hashSecret(value)],
        );
        const row = res.rows[0];
        if (!row) return { ok: false as const, error: 'invalid_code' as const };
        const grant: IssuedCode = {
          userId: row.user_id,
          launchId: row.launch_id,
          clientId: row.client_id,
          redirectUri: row.redirect_uri,
          nonce: row.nonce,
          codeChallenge: row.code_challenge,
          scope: row.scope,
        };
        const error = accept(grant);
        if (error !== null) return { ok: false as const, error };
        await tx.query('update lti_broker_codes set used_at = now() where code_hash = $1', [
          hashSecret(value),
        ]);
        return { ok: true as const, grant };
      });
    },
  };
}
