/**
 * Time as the scheduled jobs see it. The app runs on the system clock; tests pass a manual one
 * (test/manual-clock.ts) and move it forward instead of sleeping.
 */
export interface Clock {
  now(): Date;
  /**
   * Calls `tick` every `ms` (and once at once with `immediately`) until the answered function is
   * called. `tick` answers when its work is over, so a test clock can wait for it.
   */
  every(ms: number, tick: () => Promise<unknown>, options?: { immediately?: boolean }): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  every(ms, tick, { immediately = false } = {}) {
    const timer = setInterval(() => void tick(), ms);
    // A job never keeps the process alive on its own.
    timer.unref();
    if (immediately) void tick();
    return () => clearInterval(timer);
  },
};
