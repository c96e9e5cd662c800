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
  await runHooks(hooks, onHookError);
  return result;
}

/**
 * Runs `work` whose one write is a single statement, without a transaction: the statement is
 * atomic on its own, and BEGIN and COMMIT around it were two more round trips, each waiting for a
 * busy event loop with a pool connection held (issue #24 point 5; a session's join and close, a
 * third of the transactions under the learner load). The write is the first statement; only
 * plain reads may follow it (e.g. why it changed nothing): anything else throws before it is
 * sent, as it could not be undone with the first. The after-commit hooks run as
 * `runUnitOfWork`'s do, once the work resolved.
 */
export async function runSingleWrite<T>(
  db: Queryable,
  work: (uow: UnitOfWork) => Promise<T>,
  onHookError: (error: unknown) => void = () => {},
): Promise<T> {
  const hooks: Array<() => void | Promise<void>> = [];
  let statements = 0;
  const q: Queryable = {
    query(sql, params) {
      statements += 1;
      if (statements > 1 && !READ_ONLY.test(sql)) {
        return Promise.reject(new Error('a single-write unit of work tried a second write'));
      }
      return db.query(sql, params);
    },
    exec() {
      return Promise.reject(new Error('a single-write unit of work runs one statement at a time'));
    },
  };
  const result = await work({ q, afterCommit: (fn) => void hooks.push(fn) });
  await runHooks(hooks, onHookError);
  return result;
}

/** A plain read: `select` without a locking clause (which only a transaction could keep). */
const READ_ONLY = /^\s*select\b(?![\s\S]*\bfor\s+(?:no\s+key\s+)?(?:update|share|key\s+share)\b)/i;

async function runHooks(
  hooks: ReadonlyArray<() => void | Promise<void>>,
  onHookError: (error: unknown) => void,
) {
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      onHookError(error);
    }
  }
}
