import type { Queryable } from '../db/driver';

export function createHealthRepository(db: Queryable) {
  return {
    /** Resolves when the database answers a trivial statement; rejects when it cannot. */
    async ping(): Promise<void> {
      await db.query('select 1');
    },
  };
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;
