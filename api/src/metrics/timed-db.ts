import type { Db, Queryable } from '../db/driver';
import type { ApiMetrics } from './api-metrics';

const STATEMENTS = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback']);

/** The statement's first keyword when it is a common one, else `other` (a bounded label). */
export function statementKind(sql: string): string {
  const first = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toLowerCase() ?? '';
  return STATEMENTS.has(first) ? first : 'other';
}

/**
 * The same database with every statement timed into `db_query_duration_seconds` (also inside
 * transactions). Timing a promise costs two clock reads; nothing else changes.
 */
export function timedDb(db: Db, metrics: ApiMetrics): Db {
  const histogram = metrics.dbQueryDuration;
  const timed = (target: Queryable): Queryable => ({
    async query(sql, params) {
      const end = histogram.startTimer({ driver: db.kind, statement: statementKind(sql) });
      try {
        return await target.query(sql, params);
      } finally {
        end();
      }
    },
    async exec(sql) {
      const end = histogram.startTimer({ driver: db.kind, statement: 'other' });
      try {
        await target.exec(sql);
      } finally {
        end();
      }
    },
  });
  return {
    ...db,
    ...timed(db),
    ...(db.polled ? { polled: timed(db.polled) } : {}),
    kind: db.kind,
    transaction: (fn) => db.transaction((tx) => fn(timed(tx))),
    close: () => db.close(),
  };
}
