/**
 * Requests that each need one small statement of the same kind, sent together, as a database
 * groups commits: one statement at a time per process, and whatever arrives while it is out goes
 * with the next one. Under load a statement's round trip is a turn of a busy event loop (tens of
 * milliseconds), so one statement per request made the few connections that serve them the queue
 * every poll waited in (api/README, "Rolling restart", evening). An idle process sends a request
 * on the next turn of its event loop, together with the others of that turn.
 *
 * `send` answers one result per item, in the items' order; if it throws, every item of the batch
 * fails with its error and the next batch is sent all the same.
 */
export function statementBatches<Item, Result>(
  send: (items: readonly Item[]) => Promise<readonly Result[]>,
): (item: Item) => Promise<Result> {
  type Waiting = {
    item: Item;
    resolve: (result: Result) => void;
    reject: (error: unknown) => void;
  };
  let next: Waiting[] = [];
  let sending = false;
  let scheduled = false;

  const schedule = () => {
    if (sending || scheduled || next.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void flush();
    });
  };

  async function flush() {
    const batch = next;
    next = [];
    sending = true;
    try {
      const results = await send(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, i) => waiting.resolve(results[i]!));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      sending = false;
      schedule();
    }
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      next.push({ item, resolve, reject });
      schedule();
    });
}
