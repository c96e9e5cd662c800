import type { ClaimedItem } from '../repositories/outbox-repository';

export interface OutboxLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Does one claimed item: marks it done (`outbox.complete`) or throws to have it retried. An error
 * with a numeric `retryAfterMs` (a server's Retry-After) waits at least that long.
 */
export type OutboxHandler = (item: ClaimedItem) => Promise<void>;

/** What a module that owns a kind of item gives the worker. */
export interface OutboxKind {
  handle: OutboxHandler;
  /** Logged with each failed attempt; a generic one otherwise. */
  retryMessage?: string;
  /** After a failed attempt was given back for retry (e.g. to show the failure to users). */
  afterFailure?: (item: ClaimedItem) => Promise<void>;
}

/**
 * The kinds one worker can do. Each module registers its own (identity accounts, LTI scores);
 * only registered kinds are claimed, so items of a kind nobody can do now (no identity provider
 * configured) wait instead of failing over and over.
 */
export function createOutboxRegistry() {
  const kinds = new Map<string, OutboxKind>();
  return {
    register(entries: Readonly<Record<string, OutboxKind>>): void {
      for (const [kind, entry] of Object.entries(entries)) {
        // Two owners of one kind would make which one runs depend on registration order.
        if (kinds.has(kind)) throw new Error(`outbox kind ${kind} is registered twice`);
        kinds.set(kind, entry);
      }
    },
    get: (kind: string): OutboxKind | undefined => kinds.get(kind),
    kinds: (): string[] => [...kinds.keys()],
  };
}

export type OutboxRegistry = ReturnType<typeof createOutboxRegistry>;
