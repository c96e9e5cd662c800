import { isSafeRequestId, runWithRequestId } from '@portal/service-kit';
import type { Db } from '../db/driver';
import { createOutboxRepository, type ClaimedItem } from '../repositories/outbox-repository';
import type { OutboxLog, OutboxRegistry } from './handler-registry';

/**
 * The outbox engine (docs/decisions.md#outbox): a write and the outbox items it needs commit in one transaction;
 * this worker does the items afterwards with leases, lanes and retries. Items of one key run in
 * order (the claim holds back an item while an earlier one of its key is unfinished); what an item
 * means is its kind's handler's business (handler-registry.ts).
 */
export interface OutboxWorkerOptions {
  db: Db;
  registry: OutboxRegistry;
  log: OutboxLog;
  /** Items taken per round. */
  batchSize?: number;
  /** Items in flight at once (lanes). */
  concurrency?: number;
  /** How long a worker owns an item it took; past it, another worker may take it over. */
  leaseMs?: number;
  /** Wait before the next attempt after `attempts` failed ones. */
  retryDelayMs?: (attempts: number) => number;
}

/** 2 s, 4 s, 8 s … up to 15 minutes, each ±20 % so that many failures do not retry in step. */
export function defaultRetryDelayMs(attempts: number): number {
  const base = Math.min(2 ** Math.min(attempts, 20) * 1000, 15 * 60_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export interface RoundResult {
  done: number;
  failed: number;
}

export function createOutboxWorker(options: OutboxWorkerOptions) {
  const { db, log, registry } = options;
  const outbox = createOutboxRepository(db);
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 4;
  const leaseMs = options.leaseMs ?? 60_000;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;

  async function process(item: ClaimedItem): Promise<boolean> {
    const kind = registry.get(item.kind);
    // Calls made for the item carry the id of the request that queued it (outbox-repository.ts).
    const requestId = isSafeRequestId(item.payload.requestId) ? item.payload.requestId : undefined;
    try {
      if (!kind) throw new Error(`no handler for outbox kind ${item.kind}`);
      await (requestId ? runWithRequestId(requestId, () => kind.handle(item)) : kind.handle(item));
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAfterMs = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
      const delay = Math.max(
        retryDelayMs(item.attempts),
        typeof retryAfterMs === 'number' && Number.isFinite(retryAfterMs) ? retryAfterMs : 0,
      );
      log.warn(
        {
          outboxId: item.id,
          kind: item.kind,
          ...(requestId ? { reqId: requestId } : {}),
          attempts: item.attempts,
          retryInMs: delay,
          err: message,
        },
        kind?.retryMessage ?? 'outbox item failed; will retry',
      );
      await outbox.fail(item.id, message, delay);
      await kind?.afterFailure?.(item);
      return false;
    }
  }

  /** Takes one batch of due items and does them; answers how they went. */
  async function runOnce(): Promise<RoundResult> {
    const kinds = registry.kinds();
    if (kinds.length === 0) return { done: 0, failed: 0 };
    const items = await outbox.claim(batchSize, leaseMs, kinds);
    const result: RoundResult = { done: 0, failed: 0 };
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const item = items[next++]!;
        if (await process(item)) result.done++;
        else result.failed++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
    return result;
  }

  /**
   * Rounds until a round gets nothing done: nothing is due, or all that is due keeps failing
   * (each failure waits for its retry time, so that is the timer's to pick up again), or until
   * `stop()` says so before a round (a draining process claims nothing new).
   */
  async function drain(stop: () => boolean = () => false): Promise<RoundResult> {
    const total: RoundResult = { done: 0, failed: 0 };
    for (;;) {
      if (stop()) return total;
      const round = await runOnce();
      total.done += round.done;
      total.failed += round.failed;
      if (round.done === 0) return total;
    }
  }

  return { runOnce, drain, outbox };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
