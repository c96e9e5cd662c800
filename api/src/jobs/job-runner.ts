/**
 * One job's runs, never two at once in this process. A trigger during a run either joins it
 * (`join`: the caller gets that run's answer) or asks for one more run after it (`repeat`: work
 * added during the run is seen without waiting for the next tick).
 */
export function createJobRunner<T>(run: () => Promise<T>, overlap: 'join' | 'repeat' = 'join') {
  let running: Promise<T> | null = null;
  let again = false;
  let closed = false;

  function start(): Promise<T> {
    if (running) {
      if (overlap === 'repeat') again = true;
      return running;
    }
    running = (async () => {
      let result: T;
      do {
        again = false;
        result = await run();
      } while (again && !closed);
      return result;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    run: start,
    /** Resolves when the current run (if any) is over, whatever its outcome. */
    idle: async (): Promise<void> => void (await running?.catch(() => undefined)),
    /** No repeat after the current run; for shutdown. */
    close(): void {
      closed = true;
    },
  };
}
