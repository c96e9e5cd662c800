import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { currentRequestId, runWithRequestId } from '@portal/service-kit';
import { createOutboxRegistry } from '../../src/outbox/handler-registry';
import { createOutboxWorker } from '../../src/outbox/outbox-worker';
import { createOutboxRepository } from '../../src/repositories/outbox-repository';
import { buildTestApp, type TestApp } from '../helper';

let t: TestApp;
before(async () => {
  t = await buildTestApp();
});
after(() => t.close());

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

test('work queued by a request is done under that request’s id; other work under none', async () => {
  const outbox = createOutboxRepository(t.db);
  await runWithRequestId('browser-action-5', () =>
    outbox.enqueue([{ kind: 'test.trace', key: 'trace:a', payload: { n: 1 } }]),
  );
  await outbox.enqueue([{ kind: 'test.trace', key: 'trace:b', payload: { n: 2 } }]);

  const seen = new Map<unknown, string | undefined>();
  const registry = createOutboxRegistry();
  registry.register({
    'test.trace': {
      handle: async (item) => {
        await new Promise((resolve) => setImmediate(resolve));
        seen.set(item.payload.n, currentRequestId());
      },
    },
  });
  const worker = createOutboxWorker({ db: t.db, registry, log: silent, retryDelayMs: () => 0 });
  assert.deepEqual(await worker.drain(), { done: 2, failed: 0 });
  assert.equal(seen.get(1), 'browser-action-5');
  assert.equal(seen.get(2), undefined);
});
