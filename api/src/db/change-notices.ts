import type pg from 'pg';
import { SESSION_STATUSES, type SessionStatusValue } from '@portal/contract';

/**
 * Change notices between API processes sharing one PostgreSQL (issue #24 point 1). Triggers of
 * migration 0030 send them with `pg_notify` inside the writing transaction, so a notice exists
 * exactly when its change was committed; this module keeps one connection listening and hands
 * each notice to the process's caches.
 */
export const CHANGE_CHANNEL = 'portal_changes';

export type ChangeNotice =
  /** A user's row, seats, Brightspace link or newest launch changed. */
  | { kind: 'user'; id: string }
  /** An organisation's name, activation or learning platform changed: all its members. */
  | { kind: 'organisation'; id: number }
  /**
   * A session's status changed, to `status` (0041; a notice without it, from before, only says
   * that it changed).
   */
  | { kind: 'session'; id: string; status?: SessionStatusValue }
  /** Many rows, or something every user depends on (role permissions): drop everything. */
  | { kind: 'all' };

/** The notice a payload carries; null for anything else (a newer process's kind, noise). */
export function parseChangeNotice(payload: string | undefined): ChangeNotice | null {
  let value: { k?: unknown; id?: unknown; s?: unknown };
  try {
    value = JSON.parse(payload ?? '') as { k?: unknown; id?: unknown; s?: unknown };
  } catch {
    return null;
  }
  const id = typeof value.id === 'string' ? value.id : '';
  switch (value.k) {
    case 'all':
      return { kind: 'all' };
    case 'user':
      return id === '' ? null : { kind: value.k, id };
    case 'session': {
      if (id === '') return null;
      const status = SESSION_STATUSES.find((s) => s === value.s);
      return status ? { kind: 'session', id, status } : { kind: 'session', id };
    }
    case 'organisation':
      return /^\d+$/.test(id) ? { kind: 'organisation', id: Number(id) } : null;
    default:
      return null;
  }
}

export interface ChangeListenerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ChangeListenerOptions {
  /** A new, unconnected client (Db.dedicatedClient). */
  connect: () => pg.Client;
  onNotice: (notice: ChangeNotice) => void;
  /**
   * The connection was lost (`live` false) or is listening again (`live` true). Notices sent
   * meanwhile are lost, so caches must not be trusted while down and must be dropped on return.
   */
  onLiveChange: (live: boolean) => void;
  log: ChangeListenerLog;
  /** First wait before reconnecting; doubles up to `maxBackoffMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A silent connection is checked with `select 1` this often (a dead peer is found out). */
  pingMs?: number;
}

export interface ChangeListener {
  /** Resolves once listening (or once the first attempt failed: it keeps trying). */
  start(): Promise<void>;
  readonly live: boolean;
  /** Stops listening and reconnecting. */
  close(): Promise<void>;
}

export function createChangeListener(options: ChangeListenerOptions): ChangeListener {
  const initialBackoffMs = options.initialBackoffMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 10_000;
  const pingMs = options.pingMs ?? 10_000;
  const { log } = options;
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let backoffMs = initialBackoffMs;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  const setLive = (value: boolean) => {
    if (live === value) return;
    live = value;
    options.onLiveChange(value);
  };

  /** Drops the connection (if still ours) and plans the next attempt. */
  const lost = (current: pg.Client, error: unknown) => {
    if (client !== current) return;
    client = null;
    clearInterval(ping);
    current.removeAllListeners('notification');
    current.end().catch(() => undefined);
    if (closed) return;
    setLive(false);
    log.warn(
      { err: error instanceof Error ? error.message : String(error), retryInMs: backoffMs },
      'change notices: connection lost; caches bypassed until it is back',
    );
    retry = setTimeout(() => void attempt(), backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, maxBackoffMs);
  };

  async function attempt(): Promise<void> {
    if (closed) return;
    const current = options.connect();
    client = current;
    current.on('error', (error) => lost(current, error));
    current.on('end', () => lost(current, new Error('connection ended')));
    current.on('notification', (message) => {
      if (message.channel !== CHANGE_CHANNEL) return;
      const notice = parseChangeNotice(message.payload);
      if (notice) options.onNotice(notice);
    });
    try {
      await current.connect();
      await current.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      lost(current, error);
      return;
    }
    if (client !== current || closed) return;
    backoffMs = initialBackoffMs;
    ping = setInterval(() => {
      current.query('select 1').catch((error: unknown) => lost(current, error));
    }, pingMs);
    ping.unref();
    log.info({ channel: CHANGE_CHANNEL }, 'change notices: listening');
    // Only now: what changed before the LISTEN took effect is covered by the caller's flush.
    setLive(true);
  }

  return {
    start: attempt,
    get live() {
      return live;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      const current = client;
      client = null;
      live = false;
      if (current) {
        current.removeAllListeners('notification');
        await current.end().catch(() => undefined);
      }
    },
  };
}
