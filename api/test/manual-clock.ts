import type { Clock } from '../src/jobs/clock';

/**
 * A clock the test moves: `advance` fires every timer due on the way (at its own time) and waits
 * for the work the ticks started, so a test sees a job's run without sleeping or polling.
 */
export function createManualClock(start: Date = new Date()) {
  let now = start.getTime();
  const timers = new Set<{ every: number; next: number; tick: () => Promise<unknown> }>();
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  async function settle(): Promise<void> {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  }

  const clock = {
    now: () => new Date(now),
    every(ms, tick, { immediately = false } = {}) {
      const timer = { every: ms, next: now + ms, tick };
      timers.add(timer);
      if (immediately) track(tick());
      return () => void timers.delete(timer);
    },
    /** Moves time on by `ms`, firing the timers due meanwhile in time order. */
    async advance(ms: number): Promise<void> {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.every;
        track(due.tick());
        await settle();
      }
      now = end;
      await settle();
    },
    /** Waits for the work ticks started (e.g. the run when the app got ready). */
    settle,
    /** Timers running now. */
    timers: () => timers.size,
  } satisfies Clock & Record<string, unknown>;
  return clock;
}

export type ManualClock = ReturnType<typeof createManualClock>;
