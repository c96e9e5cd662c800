import type { Db, Queryable } from '../db/driver';

/** One write use case's view of the database: its transaction and what to do once it commits. */
export interface UnitOfWork {
  /** The transaction handle; give it to `createXRepository(uow.q)`. */
  readonly q: Queryable;
  /**
   * Runs `fn` after the transaction commits (cache forgets, outbox worker kicks), never after a
   * rollback, so no one sees or acts on a change that did not happen.
   */
  afterCommit(fn: () => void | Promise<void>): void;
}

/**
 * Runs `work` in one transaction, then the after-commit hooks in the order they were added. A hook
 * that throws is reported on `onHookError` (default: swallowed) and does not undo the commit or stop
 * the other hooks: the change is already durable, and hooks only refresh derived state.
 */
export async function runUnitOfWork<T>(
  db: Pick<Db, 'transaction'>,
  work: (uow: UnitOfWork) => Promise<T>,
  onHookError: (error: unknown) => void = () => {},
): Promise<T> {
  const hooks: Array<() => void | Promise<void>> = [];
  const result = await db.transaction((q) => work({ q, afterCommit: (fn) => void hooks.push(fn) }));
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      onHookError(error);
    }
  }
  return result;
}
