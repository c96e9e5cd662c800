import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { LtiJwks } from '@portal/contract';
import type { Db } from '../db/driver';

/**
 * The tool's own RS256 keys (client assertions for AGS tokens, deep-linking responses). Kept in
 * the database so every API process signs with the same key and a restart keeps it; the newest
 * unretired key signs. A rotated-out key stays in the JWKS for RETIRED_KEY_PUBLISHED_HOURS, so a
 * platform that cached the old set, or got a token signed a moment before, still verifies it.
 */
export const RETIRED_KEY_PUBLISHED_HOURS = 24;

type PublicJwk = LtiJwks['keys'][number];

async function newKeyPair(): Promise<{ kid: string; privateJwk: JWK; publicJwk: PublicJwk }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = randomUUID();
  const pub = await exportJWK(publicKey);
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' },
    publicJwk: { kty: 'RSA', kid, alg: 'RS256', use: 'sig', n: pub.n!, e: pub.e! },
  };
}

async function insertKey(db: Pick<Db, 'query'>, key: Awaited<ReturnType<typeof newKeyPair>>) {
  await db.query(
    `insert into lti_tool_keys (kid, private_jwk, public_jwk) values ($1, $2::jsonb, $3::jsonb)`,
    [key.kid, JSON.stringify(key.privateJwk), JSON.stringify(key.publicJwk)],
  );
}

export function createToolKeys(db: Db) {
  return {
    /**
     * Makes the first key unless one exists. Under a table lock, so API processes starting
     * together agree on one key instead of each making its own.
     */
    async ensure(): Promise<void> {
      const existing = await db.query(
        'select 1 from lti_tool_keys where retired_at is null limit 1',
      );
      if (existing.rowCount > 0) return;
      const key = await newKeyPair();
      await db.transaction(async (tx) => {
        await tx.query('lock table lti_tool_keys in share row exclusive mode');
        const again = await tx.query(
          'select 1 from lti_tool_keys where retired_at is null limit 1',
        );
        if (again.rowCount === 0) await insertKey(tx, key);
      });
    },

    /** A new signing key; the previous ones retire now and stay published for a while. */
    async rotate(): Promise<string> {
      const key = await newKeyPair();
      await db.transaction(async (tx) => {
        await tx.query('lock table lti_tool_keys in share row exclusive mode');
        await tx.query('update lti_tool_keys set retired_at = now() where retired_at is null');
        await insertKey(tx, key);
      });
      return key.kid;
    },

    /** The public keys a platform may see: the signing key and recently retired ones. */
    async jwks(): Promise<LtiJwks> {
      const res = await db.query<{ public_jwk: PublicJwk }>(
        `select public_jwk from lti_tool_keys
          where retired_at is null
             or retired_at > now() - make_interval(hours => $1)
          order by created_at desc, kid`,
        [RETIRED_KEY_PUBLISHED_HOURS],
      );
      return { keys: res.rows.map((r) => r.public_jwk) };
    },

    /** The key to sign with now. */
    async signingKey(): Promise<{ kid: string; key: CryptoKey }> {
      const res = await db.query<{ kid: string; private_jwk: JWK }>(
        `select kid, private_jwk from lti_tool_keys where retired_at is null
          order by created_at desc, kid limit 1`,
      );
      const row = res.rows[0];
      if (!row) throw new Error('The LTI tool has no signing key (ensure() was not called).');
      return { kid: row.kid, key: (await importJWK(row.private_jwk, 'RS256')) as CryptoKey };
    },
  };
}

export type ToolKeys = ReturnType<typeof createToolKeys>;
