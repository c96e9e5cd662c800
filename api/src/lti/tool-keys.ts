import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { LtiJwks } from '@portal/contract';
import type { Db, Queryable } from '../db/driver';
import { createAuditRepository, type AuditActor } from '../repositories/audit-repository';

/**
 * The tool's own RS256 keys (client assertions for AGS tokens, deep-linking responses). Kept in
 * the database so every API process signs with the same key and a restart keeps it.
 *
 * A key is published in the JWKS from the moment it exists and signs from its `signs_from`: a
 * rotation publishes the next key NEXT_KEY_PUBLISHED_BEFORE_HOURS before it signs, so a platform
 * that cached our JWKS (Moodle and Canvas keep it for hours) has the new key before the first
 * token signed with it. The key it replaces stops signing then (`retired_at`) and stays
 * published RETIRED_KEY_PUBLISHED_HOURS longer, for tokens signed a moment before.
 */
export const RETIRED_KEY_PUBLISHED_HOURS = 24;
export const NEXT_KEY_PUBLISHED_BEFORE_HOURS = 24;
/** The scheduled rotation publishes a successor once the signing key has signed this long. */
export const KEY_ROTATION_DAYS = 90;

const HOUR_MS = 3_600_000;

type PublicJwk = LtiJwks['keys'][number];

export type ToolKeyState = 'next' | 'signing' | 'retired';

export interface ToolKeyInfo {
  kid: string;
  state: ToolKeyState;
  createdAt: Date;
  signsFrom: Date;
  /** When it stopped (or will stop) signing; null while no successor is published. */
  retiredAt: Date | null;
}

export interface RotateOptions {
  actor: AuditActor;
  now?: Date;
  /**
   * The new key signs at once (a leaked key): platforms that cached the JWKS refuse its tokens
   * until they fetch it again. Otherwise it signs NEXT_KEY_PUBLISHED_BEFORE_HOURS from now.
   */
  immediately?: boolean;
  /** Why, for the audit entry: the schedule, an operator's command. */
  reason: 'scheduled' | 'command';
}

export type RotateResult =
  | { rotated: true; kid: string; signsFrom: Date; replaces: string[] }
  /** A published next key is waiting to sign already; a second one would only add a key. */
  | { rotated: false; reason: 'next_key_exists'; kid: string; signsFrom: Date };

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

type KeyPair = Awaited<ReturnType<typeof newKeyPair>>;

async function insertKey(q: Queryable, key: KeyPair, signsFrom: Date) {
  await q.query(
    `insert into lti_tool_keys (kid, private_jwk, public_jwk, signs_from)
     values ($1, $2::jsonb, $3::jsonb, $4::timestamptz)`,
    [key.kid, JSON.stringify(key.privateJwk), JSON.stringify(key.publicJwk), signsFrom.toISOString()],
  );
}

/**
 * Serialises every change of the key set across API processes and commands; the mode conflicts
 * with itself, so a second rotation waits for the first and then sees its key.
 */
export async function lockToolKeys(tx: Queryable) {
  await tx.query('lock table lti_tool_keys in share row exclusive mode');
}

/** The key that signs at `now`: the newest whose `signs_from` has passed and is not retired. */
const SIGNING_KEY_SQL = `
  select kid, private_jwk, signs_from from lti_tool_keys
   where signs_from <= $1::timestamptz and (retired_at is null or retired_at > $1::timestamptz)
   order by signs_from desc, created_at desc, kid limit 1`;

interface KeyRow {
  kid: string;
  created_at: Date | string;
  signs_from: Date | string;
  retired_at: Date | string | null;
}

function stateAt(row: KeyRow, now: Date, signingKid: string | undefined): ToolKeyState {
  if (row.kid === signingKid) return 'signing';
  return new Date(row.signs_from) > now && row.retired_at === null ? 'next' : 'retired';
}

/**
 * Publishes a new key within `tx` (which must hold lockToolKeys): signing from tomorrow, or at once
 * with `immediately`. Every other key still signing, or waiting to, stops when the new one starts.
 */
export async function rotateToolKey(tx: Queryable, options: RotateOptions): Promise<RotateResult> {
  const now = options.now ?? new Date();
  if (!options.immediately) {
    const waiting = await tx.query<{ kid: string; signs_from: Date | string }>(
      `select kid, signs_from from lti_tool_keys
        where signs_from > $1::timestamptz and retired_at is null
        order by signs_from desc limit 1`,
      [now.toISOString()],
    );
    const next = waiting.rows[0];
    if (next) {
      return { rotated: false, reason: 'next_key_exists', kid: next.kid, signsFrom: new Date(next.signs_from) };
    }
  }
  const signsFrom = options.immediately
    ? now
    : new Date(now.getTime() + NEXT_KEY_PUBLISHED_BEFORE_HOURS * HOUR_MS);
  const key = await newKeyPair();
  await insertKey(tx, key, signsFrom);
  const replaced = await tx.query<{ kid: string }>(
    `update lti_tool_keys set retired_at = $2::timestamptz
      where kid <> $1 and (retired_at is null or retired_at > $2::timestamptz)
      returning kid`,
    [key.kid, signsFrom.toISOString()],
  );
  const replaces = replaced.rows.map((r) => r.kid).sort();
  await createAuditRepository(tx).record({
    actor: options.actor,
    action: 'create',
    entityType: 'lti_tool_key',
    entityId: key.kid,
    organisationId: null,
    after: {
      kid: key.kid,
      signsFrom: signsFrom.toISOString(),
      immediately: options.immediately === true,
      reason: options.reason,
      replaces,
    },
  });
  return { rotated: true, kid: key.kid, signsFrom, replaces };
}

/** The key signing at `now` and since when; null when there is none. */
export async function signingKeySince(
  q: Queryable,
  now: Date,
): Promise<{ kid: string; signsFrom: Date } | null> {
  const res = await q.query<{ kid: string; signs_from: Date | string }>(SIGNING_KEY_SQL, [
    now.toISOString(),
  ]);
  const row = res.rows[0];
  return row ? { kid: row.kid, signsFrom: new Date(row.signs_from) } : null;
}

export function createToolKeys(db: Db) {
  return {
    /**
     * Makes the first key unless one exists. Under the table lock, so API processes starting
     * together agree on one key instead of each making its own.
     */
    async ensure(now: Date = new Date()): Promise<void> {
      const existing = await db.query('select 1 from lti_tool_keys where retired_at is null limit 1');
      if (existing.rowCount > 0) return;
      const key = await newKeyPair();
      await db.transaction(async (tx) => {
        await lockToolKeys(tx);
        const again = await tx.query('select 1 from lti_tool_keys where retired_at is null limit 1');
        if (again.rowCount === 0) await insertKey(tx, key, now);
      });
    },

    /** Publishes a next key (see rotateToolKey), audited, under the table lock. */
    async rotate(options: RotateOptions): Promise<RotateResult> {
      return db.transaction(async (tx) => {
        await lockToolKeys(tx);
        return rotateToolKey(tx, options);
      });
    },

    /**
     * The public keys a platform may see at `now`: the next key (before it signs), the signing
     * key, and keys that stopped signing within RETIRED_KEY_PUBLISHED_HOURS. A key retired
     * before it ever signed (replaced by an immediate rotation) is not published.
     */
    async jwks(now: Date = new Date()): Promise<LtiJwks> {
      const res = await db.query<{ public_jwk: PublicJwk }>(
        `select public_jwk from lti_tool_keys
          where retired_at is null
             or (retired_at > signs_from
                 and retired_at > $1::timestamptz - make_interval(hours => $2))
          order by signs_from desc, created_at desc, kid`,
        [now.toISOString(), RETIRED_KEY_PUBLISHED_HOURS],
      );
      return { keys: res.rows.map((r) => r.public_jwk) };
    },

    /** Every key with its state at `now`, newest first (for the rotation command's answer). */
    async list(now: Date = new Date()): Promise<ToolKeyInfo[]> {
      const signing = await signingKeySince(db, now);
      const res = await db.query<KeyRow>(
        `select kid, created_at, signs_from, retired_at from lti_tool_keys
          order by signs_from desc, created_at desc, kid`,
      );
      return res.rows.map((row) => ({
        kid: row.kid,
        state: stateAt(row, now, signing?.kid),
        createdAt: new Date(row.created_at),
        signsFrom: new Date(row.signs_from),
        retiredAt: row.retired_at === null ? null : new Date(row.retired_at),
      }));
    },

    /** The key to sign with at `now`. */
    async signingKey(now: Date = new Date()): Promise<{ kid: string; key: CryptoKey }> {
      const res = await db.query<{ kid: string; private_jwk: JWK }>(SIGNING_KEY_SQL, [
        now.toISOString(),
      ]);
      const row = res.rows[0];
      if (!row) throw new Error('The LTI tool has no signing key (ensure() was not called).');
      return { kid: row.kid, key: (await importJWK(row.private_jwk, 'RS256')) as CryptoKey };
    },
  };
}

export type ToolKeys = ReturnType<typeof createToolKeys>;
