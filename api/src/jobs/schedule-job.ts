import type { FastifyInstance } from 'fastify';
import { createJobRunner } from './job-runner';

export interface ScheduleJobOptions<T> {
  /** The job's name in /metrics (`job_runs_total{job}`): snake_case, fixed. */
  name: string;
  /** Between ticks; 0 or less: no timer (the job still runs when called). */
  everyMs: number;
  /** Also run once when the app is ready (daily jobs: a restart does not wait a whole period). */
  runWhenReady?: boolean;
  overlap?: 'join' | 'repeat';
  run: (now: Date) => Promise<T>;
  /** A timer's run that failed; the next tick tries again. */
  onError: (error: unknown) => void;
}

/**
 * Every timer of the API: runs `run` on `app.clock` from `onReady`, never two runs at once, and
 * on close stops the timer and waits for a run in flight (the database closes after the plugins'
 * onClose hooks; an interrupted run would leave its leases or locks to expire). A draining
 * instance (SIGTERM) starts no run from then on; the one in flight finishes before the close.
 */
export function scheduleJob<T>(app: FastifyInstance, options: ScheduleJobOptions<T>) {
  const runs = app.metrics.jobRuns.labels(options.name);
  const failures = app.metrics.jobFailures.labels(options.name);
  const runner = createJobRunner(async () => {
    runs.inc();
    try {
      return await options.run(app.clock.now());
    } catch (error) {
      failures.inc();
      throw error;
    }
  }, options.overlap);
  let closed = false;
  let stop = () => undefined as void;
  const stopTakingWork = () => {
    closed = true;
    runner.close();
    stop();
  };
  app.lifecycle.onDrain(stopTakingWork);

  const trigger = (): Promise<void> => {
    if (closed) return Promise.resolve();
    return runner.run().then(
      () => undefined,
      (error: unknown) => options.onError(error),
    );
  };

  if (options.everyMs > 0) {
    app.addHook('onReady', async () => {
      if (closed) return;
      stop = app.clock.every(options.everyMs, trigger, { immediately: options.runWhenReady });
    });
  }
  app.addHook('onClose', async () => {
    stopTakingWork();
    await runner.idle();
  });

  return {
    /** Runs now (or joins the run in flight); its errors are the caller's. */
    run: runner.run,
    /** Runs now, like a tick: errors go to `onError`. */
    trigger: () => void trigger(),
    idle: runner.idle,
  };
}
