import type { AuditAction, AuditEntityType, AuditEntry, AuditListQuery } from '@portal/contract';
import type { Queryable } from '../db/driver';
import { pagedList } from '../lib/paged-list';

/** Who acted: the signed-in user (`currentUser(request)` fits), or SYSTEM_ACTOR. */
export interface AuditActor {
  /** null: no user, the API itself (a scheduled job). */
  id: string | null;
  firstName: string;
  lastName: string;
  /** null: a user a learning platform launched without an address (stored as '', as System's). */
  email: string | null;
}

/** The actor of scheduled jobs' writes (the daily licence expiry): shown as "System". */
export const SYSTEM_ACTOR: AuditActor = { id: null, firstName: 'System', lastName: '', email: '' };

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string | number;
  organisationId: number | null;
  /** The object as it was; null for a create. */
  before?: unknown;
  /** The object as it is now; null for a delete. */
  after?: unknown;
}

/**
 * Writes one audit entry with `tx`, the transaction of the change itself: the entry is committed
 * exactly when the change is, so the log can neither miss a write nor record one that was rolled
 * back. Call it from every admin write.
 */
async function insertAudit(q: Queryable, entry: AuditRecord): Promise<void> {
  await q.query(
    `insert into audit_log (actor_id, actor_name, actor_email, action, entity_type, entity_id,
                            organisation_id, before, after)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      entry.actor.id,
      `${entry.actor.firstName} ${entry.actor.lastName}`.trim(),
      entry.actor.email ?? '',
      entry.action,
      entry.entityType,
      String(entry.entityId),
      entry.organisationId,
      entry.before === undefined || entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === undefined || entry.after === null ? null : JSON.stringify(entry.after),
    ],
  );
}

interface AuditRow {
  id: number;
  at: Date | string;
  actor_id: string | null;
  actor_name: string;
  actor_email: string;
  action: AuditEntry['action'];
  entity_type: AuditEntry['entityType'];
  entity_id: string;
  organisation_id: number | null;
  organisation_name: string | null;
  before: unknown;
  after: unknown;
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  actorId: row.actor_id,
  actorName: row.actor_name,
  actorEmail: row.actor_email,
  action: row.action,
  entityType: row.entity_type,
  entityId: row.entity_id,
  organisation: row.organisation_id,
  organisationName: row.organisation_name,
  before: row.before,
  after: row.after,
});

export function createAuditRepository(db: Queryable) {
  return {
    /** One entry, written with the handle the repository was made with: the change's transaction. */
    record: (entry: AuditRecord) => insertAudit(db, entry),

    /** One page of entries; `organisationId` null = every organisation's and the global ones. */
    list(query: AuditListQuery, organisationId: number | null) {
      const conditions: string[] = [];
      const params: unknown[] = [];
      if (organisationId !== null) {
        params.push(organisationId);
        conditions.push(`a.organisation_id = $${params.length}`);
      }
      if (query.entityType !== undefined) {
        params.push(query.entityType);
        conditions.push(`a.entity_type = $${params.length}`);
      }
      return pagedList<AuditRow, AuditEntry>(db, query, {
        from: 'audit_log a left join organisations o on o.id = a.organisation_id',
        select: `a.id, a.at, a.actor_id, a.actor_name, a.actor_email, a.action, a.entity_type,
                 a.entity_id, a.organisation_id, o.name as organisation_name, a.before, a.after`,
        ...(conditions.length > 0 ? { where: { sql: conditions.join(' and '), params } } : {}),
        sortable: {
          at: 'a.at',
          action: 'a.action',
          entityType: 'a.entity_type',
          actorName: 'lower(a.actor_name)',
        },
        searchable: ['a.actor_name', 'a.actor_email', 'a.action', 'a.entity_type', 'a.entity_id'],
        defaultOrdering: '-at',
        tieBreaker: 'a.id desc',
        map: toEntry,
      });
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
