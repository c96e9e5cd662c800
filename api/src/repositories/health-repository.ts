import type { Queryable } from '../db/driver';

export function createHealthRepository(db: Queryable) {
  return {
    /** Resolves when the database answers a trivial statement; rejects when it cannot. */
    async ping(): Promise<void> {
      await db.query('select 1');
    },
    /** How many of `versions` the database has applied (readiness: all of this release's). */
    async appliedMigrations(versions: readonly number[]): Promise<number> {
      const res = await db.query<{ n: number }>(
        'select count(*)::int as n from schema_migrations where version = any($1::int[])',
        [versions],
      );
      return res.rows[0]?.n ?? 0;
    },
  };
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;
