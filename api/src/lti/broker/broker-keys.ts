import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { Db } from '../../db/driver';

/** The public half as the broker's JWKS publishes it. */
export interface BrokerPublicJwk {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  n: string;
  e: string;
}

/**
 * The broker's own RS256 key (ID tokens, access tokens), apart from the LTI tool's keys: the
 * identity provider trusts this one for sign-ins, platforms trust the tool's for grades. Kept in
 * the database so every API process signs with the same key and a restart keeps it; the first
 * process to start makes it (the table lock lets only one do so).
 */
export function createBrokerKeys(db: Db) {
  let cached: { kid: string; key: CryptoKey } | null = null;

  return {
    async ensure(): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query('lock table lti_broker_keys in share row exclusive mode');
        const existing = await tx.query('select 1 from lti_broker_keys limit 1');
        if (existing.rowCount > 0) return;
        const { privateKey, publicKey } = await generateKeyPair('RS256', {
          modulusLength: 2048,
          extractable: true,
        });
        const kid = randomUUID();
        const pub = await exportJWK(publicKey);
        const publicJwk: BrokerPublicJwk = {
          kty: 'RSA',
          kid,
          alg: 'RS256',
          use: 'sig',
          n: pub.n!,
          e: pub.e!,
        };
        await tx.query(
          'insert into lti_broker_keys (kid, private_jwk, public_jwk) values ($1, $2::jsonb, $3::jsonb)',
          [
            kid,
            JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'RS256' }),
            JSON.stringify(publicJwk),
          ],
        );
      });
    },

    async jwks(): Promise<{ keys: BrokerPublicJwk[] }> {
      const res = await db.query<{ public_jwk: BrokerPublicJwk }>(
        'select public_jwk from lti_broker_keys order by created_at desc, kid',
      );
      return { keys: res.rows.map((r) => r.public_jwk) };
    },

    /** The newest key; read once per process (there is no rotation to follow). */
    async signingKey(): Promise<{ kid: string; key: CryptoKey }> {
      if (cached) return cached;
      const res = await db.query<{ kid: string; private_jwk: JWK }>(
        'select kid, private_jwk from lti_broker_keys order by created_at desc, kid limit 1',
      );
      const row = res.rows[0];
      if (!row) throw new Error('The LTI broker has no signing key (ensure() was not called).');
      cached = { kid: row.kid, key: (await importJWK(row.private_jwk, 'RS256')) as CryptoKey };
      return cached;
    },
  };
}

export type BrokerKeys = ReturnType<typeof createBrokerKeys>;
