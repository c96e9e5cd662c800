import { randomBytes, randomUUID } from 'node:crypto';
import {
  LTI_FRAME_ORIGIN_MESSAGES,
  LTI_MESSAGES,
  parseFrameOrigin,
  SIMULATION_MODES,
  type SimulationMode,
  ORGANISATION_MESSAGES,
  type FieldErrors,
  type LtiPlatform,
  type LtiPlatformInput,
  type LtiPlatformListQuery,
  isUuid,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { badRequest } from '../lib/http-errors';
import { pagedList } from '../lib/paged-list';
import type { RegisteredPlatform, ValidLaunch } from './lti-types';
import { type AuditActor, createAuditRepository } from './audit-repository';
import { currentLicenseSql, isoDay } from './entitlement-repository';

/** A recorded launch as a deep linking answer needs it. */
export interface DeepLinkLaunchRow {
  id: string;
  user_id: string;
  message_type: string;
  deployment_id: string;
  roles: string[];
  settings: Record<string, unknown> | null;
  age: number;
  issuer: string;
  client_id: string;
  organisation_id: number;
  organisation_name: string;
}

const DEEP_LINK_LAUNCH_SQL = `select l.id::text as id, l.user_id::text as user_id, l.message_type,
    l.deployment_id, l.roles, l.deep_linking_settings as settings,
    extract(epoch from (now() - l.created_at))::float8 as age,
    p.issuer, p.client_id, p.organisation_id, o.name as organisation_name
  from lti_launches l
  join lti_platforms p on p.id = l.platform_id
  join organisations o on o.id = p.organisation_id
 where l.id = $1::uuid`;


/** A login's state and nonce are good for this long (issue #10). */
export const LOGIN_STATE_TTL_SECONDS = 600;

interface PlatformRow {
  id: number;
  issuer: string;
  client_id: string;
  auth_login_url: string;
  access_token_url: string;
  jwks_url: string;
  deployment_ids: string[];
  organisation_id: number;
  organisation_name: string;
  verifies_email: boolean;
  frame_origins: string[];
  token_audience: string | null;
  created_at: Date | string;
}

const PLATFORM_SELECT = `p.id, p.issuer, p.client_id, p.auth_login_url, p.access_token_url,
  p.jwks_url, p.deployment_ids, p.organisation_id, o.name as organisation_name, p.verifies_email,
  p.frame_origins, p.token_audience, p.created_at`;
const PLATFORM_FROM = 'lti_platforms p join organisations o on o.id = p.organisation_id';

const toPlatform = (r: PlatformRow): LtiPlatform => ({
  id: r.id,
  issuer: r.issuer,
  clientId: r.client_id,
  authLoginUrl: r.auth_login_url,
  accessTokenUrl: r.access_token_url,
  jwksUrl: r.jwks_url,
  deploymentIds: r.deployment_ids,
  organisationId: r.organisation_id,
  organisationName: r.organisation_name,
  verifiesEmail: r.verifies_email,
  frameOrigins: r.frame_origins,
  tokenAudience: r.token_audience,
  createdAt: new Date(r.created_at).toISOString(),
});

function isPlatformTaken(error: unknown): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  return (
    e.code === '23505' &&
    (e.constraint === 'lti_platforms_issuer_client_key' ||
      (typeof e.message === 'string' && e.message.includes('lti_platforms_issuer_client_key')))
  );
}

/** What the registration stores: trimmed, deployment ids once each in the given order. */
const normalise = (input: LtiPlatformInput) => ({
  ...input,
  issuer: input.issuer.trim(),
  clientId: input.clientId.trim(),
  deploymentIds: [...new Set(input.deploymentIds.map((d) => d.trim()))],
  verifiesEmail: input.verifiesEmail ?? false,
  tokenAudience: input.tokenAudience?.trim() || null,
});

/**
 * The framing origins as stored (URL.origin form, once each, in the given order), or the field's
 * errors: every wrong entry named, so the administrator sees all of them at once.
 */
function frameOriginsOf(input: LtiPlatformInput): { origins: string[]; errors: string[] } {
  const origins = new Set<string>();
  const errors: string[] = [];
  for (const value of input.frameOrigins ?? []) {
    const parsed = parseFrameOrigin(value);
    if ('origin' in parsed) origins.add(parsed.origin);
    else errors.push(`${value.trim()}: ${LTI_FRAME_ORIGIN_MESSAGES[parsed.problem]}`);
  }
  return { origins: [...origins], errors };
}

export async function findPlatformIn(tx: Queryable, id: number): Promise<LtiPlatform | null> {
  const res = await tx.query<PlatformRow>(
    `select ${PLATFORM_SELECT} from ${PLATFORM_FROM} where p.id = $1`,
    [id],
  );
  const row = res.rows[0];
  return row ? toPlatform(row) : null;
}

/**
 * A launch's `user_id` (text) and `age` in seconds, no row for an unknown one. `id` is a SQL
 * placeholder of a well-formed uuid. launchOwnerAndAge and the session launch's read share it.
 */
export function launchOwnerAndAgeSql(id: string): string {
  return `select user_id::text as user_id, extract(epoch from (now() - created_at))::float8 as age
           from lti_launches where id = ${id}::uuid`;
}

export function createLtiRepository(q: Queryable) {
  async function validate(tx: Queryable, input: LtiPlatformInput, exceptId: number | null) {
    const errors: FieldErrors = {};
    const org = await tx.query('select 1 from organisations where id = $1', [input.organisationId]);
    if (org.rowCount === 0) errors.organisationId = [ORGANISATION_MESSAGES.invalidChoice];
    const taken = await tx.query(
      'select 1 from lti_platforms where issuer = $1 and client_id = $2 and id is distinct from $3',
      [input.issuer, input.clientId, exceptId],
    );
    if (taken.rowCount > 0) errors.clientId = [LTI_MESSAGES.platformTaken];
    const framing = frameOriginsOf(input);
    if (framing.errors.length > 0) errors.frameOrigins = framing.errors;
    if (Object.keys(errors).length > 0) throw badRequest(errors);
  }

  async function guardTaken<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isPlatformTaken(error)) throw badRequest({ clientId: [LTI_MESSAGES.platformTaken] });
      throw error;
    }
  }

  const values = (p: ReturnType<typeof normalise>) => [
    p.issuer,
    p.clientId,
    p.authLoginUrl,
    p.accessTokenUrl,
    p.jwksUrl,
    p.deploymentIds,
    p.organisationId,
    p.verifiesEmail,
    frameOriginsOf(p).origins,
    p.tokenAudience,
  ];

  return {
    list(query: LtiPlatformListQuery) {
      const { organisation, ...paged } = query;
      return pagedList<PlatformRow, LtiPlatform>(q, paged, {
        from: PLATFORM_FROM,
        select: PLATFORM_SELECT,
        ...(organisation === undefined
          ? {}
          : { where: { sql: 'p.organisation_id = $1::integer', params: [organisation] } }),
        sortable: {
          id: 'p.id',
          issuer: 'p.issuer',
          clientId: 'p.client_id',
          organisationName: 'lower(o.name)',
        },
        searchable: ['p.issuer', 'p.client_id'],
        defaultOrdering: 'id',
        tieBreaker: 'p.id',
        map: toPlatform,
      });
    },

    find: (id: number) => findPlatformIn(q, id),

    create(raw: LtiPlatformInput, actor: AuditActor): Promise<LtiPlatform> {
      const input = normalise(raw);
      return guardTaken(async () => {
        await validate(q, input, null);
        const res = await q.query<{ id: number }>(
          `insert into lti_platforms (issuer, client_id, auth_login_url, access_token_url,
                                      jwks_url, deployment_ids, organisation_id, verifies_email,
                                      frame_origins, token_audience)
           values ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9::text[], $10) returning id`,
          values(input),
        );
        const created = (await findPlatformIn(q, res.rows[0]!.id))!;
        await createAuditRepository(q).record({
          actor,
          action: 'create',
          entityType: 'lti_platform',
          entityId: created.id,
          organisationId: created.organisationId,
          after: created,
        });
        return created;
      });
    },

    update(id: number, raw: LtiPlatformInput, actor: AuditActor): Promise<LtiPlatform | null> {
      const input = normalise(raw);
      return guardTaken(async () => {
        const lock = await q.query('select 1 from lti_platforms where id = $1 for update', [id]);
        if (lock.rowCount === 0) return null;
        const before = (await findPlatformIn(q, id))!;
        await validate(q, input, id);
        await q.query(
          `update lti_platforms
              set issuer = $1, client_id = $2, auth_login_url = $3, access_token_url = $4,
                  jwks_url = $5, deployment_ids = $6::text[], organisation_id = $7,
                  verifies_email = $8, frame_origins = $9::text[], token_audience = $10,
                  updated_at = now()
            where id = $11`,
          [...values(input), id],
        );
        const after = (await findPlatformIn(q, id))!;
        await createAuditRepository(q).record({
          actor,
          action: 'update',
          entityType: 'lti_platform',
          entityId: id,
          organisationId: after.organisationId,
          before,
          after,
        });
        return after;
      });
    },

    /** Deletes the registration with its states and launches (cascade); false when unknown. */
    async remove(id: number, actor: AuditActor): Promise<boolean> {
      const before = await findPlatformIn(q, id);
      if (!before) return false;
      await q.query('delete from lti_platforms where id = $1', [id]);
      await createAuditRepository(q).record({
        actor,
        action: 'delete',
        entityType: 'lti_platform',
        entityId: id,
        organisationId: before.organisationId,
        before,
      });
      return true;
    },

    /**
     * The registration a login initiation names: by issuer and, when the platform sends it,
     * client id. Without a client id the issuer must be registered exactly once.
     */
    async forLogin(issuer: string, clientId: string | undefined): Promise<LtiPlatform | null> {
      const res = await q.query<PlatformRow>(
        `select ${PLATFORM_SELECT} from ${PLATFORM_FROM}
          where p.issuer = $1 and ($2::text is null or p.client_id = $2)
          order by p.id limit 2`,
        [issuer, clientId ?? null],
      );
      return res.rows.length === 1 ? toPlatform(res.rows[0]!) : null;
    },

    /**
     * A new state and nonce for a login at `platformId`; old, unused ones are swept on the way.
     * `storageTarget`: the platform's postMessage storage frame, when it offered one.
     */
    async createLoginState(
      platformId: number,
      storageTarget: string | null = null,
    ): Promise<{ state: string; nonce: string }> {
      const state = randomBytes(32).toString('base64url');
      const nonce = randomBytes(32).toString('base64url');
      await q.query(
        `delete from lti_login_states
          where created_at < now() - make_interval(secs => $1 * 2)`,
        [LOGIN_STATE_TTL_SECONDS],
      );
      await q.query(
        `insert into lti_login_states (state, nonce, platform_id, storage_target)
         values ($1, $2, $3, $4)`,
        [state, nonce, platformId, storageTarget],
      );
      return { state, nonce };
    },

    /** An unused, fresh login's platform and storage frame, without spending it; null otherwise. */
    async pendingLogin(
      state: string,
    ): Promise<{ platformId: number; storageTarget: string | null } | null> {
      const res = await q.query<{ platform_id: number; storage_target: string | null }>(
        `select platform_id, storage_target from lti_login_states
          where state = $1 and used_at is null
            and created_at > now() - make_interval(secs => $2)`,
        [state, LOGIN_STATE_TTL_SECONDS],
      );
      const row = res.rows[0];
      return row ? { platformId: row.platform_id, storageTarget: row.storage_target } : null;
    },

    /** One statement marks it used: of two launches racing with one state, one wins. */
    async consumeState(state: string): Promise<{ nonce: string; platformId: number } | null> {
      const res = await q.query<{ nonce: string; platform_id: number }>(
        `update lti_login_states set used_at = now()
          where state = $1 and used_at is null
            and created_at > now() - make_interval(secs => $2)
          returning nonce, platform_id`,
        [state, LOGIN_STATE_TTL_SECONDS],
      );
      const row = res.rows[0];
      return row ? { nonce: row.nonce, platformId: row.platform_id } : null;
    },

    async registered(id: number): Promise<RegisteredPlatform | null> {
      const p = await findPlatformIn(q, id);
      return p
        ? {
            id: p.id,
            issuer: p.issuer,
            clientId: p.clientId,
            deploymentIds: p.deploymentIds,
            organisationId: p.organisationId,
            verifiesEmail: p.verifiesEmail,
          }
        : null;
    },

    /** Who made a launch and how many seconds ago; null for an unknown (or malformed) id. */
    async launchOwnerAndAge(
      launchId: string,
    ): Promise<{ userId: string; ageSeconds: number } | null> {
      if (!isUuid(launchId)) return null;
      const res = await q.query<{ user_id: string; age: number }>(launchOwnerAndAgeSql('$1'), [
        launchId,
      ]);
      const row = res.rows[0];
      return row ? { userId: row.user_id, ageSeconds: Number(row.age) } : null;
    },

    /** Records a validated launch for `userId` (with the user's link, in one transaction); answers the launchId. */
    async recordLaunch(launch: ValidLaunch, userId: string): Promise<string> {
      const id = randomUUID();
      const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
      await q.query(
        `insert into lti_launches (id, platform_id, deployment_id, message_type, platform_sub, roles,
                                   context, resource_link, ags_endpoint, deep_linking_settings,
                                   custom, user_id, brightspace_user_id)
         values ($1, $2, $3, $4, $5, $6::text[], $7::jsonb, $8::jsonb, $9::jsonb, $10::jsonb,
                 $11::jsonb, $12, $13)`,
        [
          id,
          launch.platform.id,
          launch.deploymentId,
          launch.messageType,
          launch.sub,
          launch.roles,
          json(launch.context),
          json(launch.resourceLink),
          json(launch.agsEndpoint),
          json(launch.deepLinkingSettings),
          JSON.stringify(launch.custom),
          userId,
          launch.brightspaceUserId,
        ],
      );
      return id;
    },

    /** The launch with its platform, for a deep linking answer; locked for the answer. */
    async deepLinkRequest(launchId: string, forUpdate = false): Promise<DeepLinkLaunchRow | null> {
      if (!isUuid(launchId)) return null;
      const res = await q.query<DeepLinkLaunchRow>(
        `${DEEP_LINK_LAUNCH_SQL}${forUpdate ? ' for update of l' : ''}`,
        [launchId],
      );
      return res.rows[0] ?? null;
    },

    /** The products the organisation holds a current licence for, with the modes it grants. */
    async licensedModes(
      organisationId: number,
      today: Date,
    ): Promise<Map<number, SimulationMode[]>> {
      const res = await q.query<{ product_id: number; mode: SimulationMode }>(
        `select distinct e.product_id, e.mode
           from license_blocks lb
           join license_block_entitlements lbe on lbe.license_block_id = lb.id
           join entitlements e on e.id = lbe.entitlement_id
          where lb.organisation_id = $1 and ${currentLicenseSql('lb', '$2::date')}`,
        [organisationId, isoDay(today)],
      );
      const modes = new Map<number, SimulationMode[]>();
      for (const { product_id: id, mode } of res.rows) {
        modes.set(id, [...(modes.get(id) ?? []), mode]);
      }
      for (const list of modes.values()) {
        list.sort((a, b) => SIMULATION_MODES.indexOf(a) - SIMULATION_MODES.indexOf(b));
      }
      return modes;
    },

    /** Marks the deep linking request answered under `key` with the digest of the JWT handed out. */
    async recordDeepLinkAnswer(launchId: string, key: string, digest: string): Promise<void> {
      await q.query(
        `update lti_launches
            set deep_linking_settings = deep_linking_settings
                  || jsonb_build_object($2::text,
                       jsonb_build_object('sha256', $3::text, 'at', now()))
          where id = $1::uuid`,
        [launchId, key, digest],
      );
    },

    /** A deep linking request's settings and whether its answer (under `key`) is younger than `ttlSeconds`. */
    async deepLinkAnswer(
      launchId: string,
      key: string,
      ttlSeconds: number,
    ): Promise<{ settings: Record<string, unknown> | null; fresh: boolean } | null> {
      if (!isUuid(launchId)) return null;
      const res = await q.query<{ settings: Record<string, unknown> | null; fresh: boolean }>(
        `select deep_linking_settings as settings,
                coalesce((deep_linking_settings -> $2::text ->> 'at')::timestamptz
                           > now() - make_interval(secs => $3), false) as fresh
           from lti_launches where id = $1::uuid and message_type = 'LtiDeepLinkingRequest'`,
        [launchId, key, ttlSeconds],
      );
      return res.rows[0] ?? null;
    },

    async jwksUrlOf(id: number): Promise<string | null> {
      const res = await q.query<{ jwks_url: string }>(
        'select jwks_url from lti_platforms where id = $1',
        [id],
      );
      return res.rows[0]?.jwks_url ?? null;
    },
  };
}

export type LtiRepository = ReturnType<typeof createLtiRepository>;
