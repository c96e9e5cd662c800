import fp from 'fastify-plugin';
import { identityAccountKinds } from '../../identity/account-handlers';
import { scheduleJob } from '../../jobs/schedule-job';
import { ltiScoreKinds } from '../../lti/grade-passback';
import { rosterSyncKinds } from '../../services/lti/roster-sync-run';
import { markEvidenceKinds } from '../../services/sessions/mark-evidence';
import { createToolKeys } from '../../lti/tool-keys';
import { createOutboundClient, outboundPolicyFor } from '../../lib/outbound-http';
import { createOutboxRegistry } from '../../outbox/handler-registry';
import { createOutboxWorker } from '../../outbox/outbox-worker';

declare module 'fastify' {
  interface FastifyInstance {
    outboxWorker: {
      /**
       * Look for work now (called after a commit that added some, so an invitation goes out
       * within a moment instead of at the next poll). Does nothing without a worker.
       */
      kick(): void;
      /** Resolves when the current run (if any) has finished; for tests and shutdown. */
      idle(): Promise<void>;
    };
  }
}

/**
 * Runs the outbox (docs/decisions.md#outbox) in this process: every OUTBOX_POLL_SECONDS and whenever kicked.
 * Several API processes may run it against one PostgreSQL; the claim query shares the items out.
 * Grades (`lti.score`) always go out and images are always marked (`mark-evidence`); identity
 * items only with an identity provider configured. Without a worker (OUTBOX_POLL_SECONDS=0) in any
 * process, uploaded images stay unmarked.
 */
export const outboxWorkerPlugin = fp(
  async (app) => {
    const { config, identityAdmin } = app;
    if (config.outboxPollMs <= 0) {
      app.decorate('outboxWorker', { kick: () => undefined, idle: async () => undefined });
      return;
    }
    const outbound = createOutboundClient({ policy: outboundPolicyFor(config.portalUrl) });
    const registry = createOutboxRegistry();
    // Without an identity provider its items wait (instead of failing over and over) while grades
    // still go out.
    if (identityAdmin)
      registry.register(identityAccountKinds({ db: app.db, identityAdmin, log: app.log }));
    const toolKeys = createToolKeys(app.db);
    registry.register(ltiScoreKinds({ db: app.db, toolKeys, log: app.log, outbound }));
    // Images are marked here, after the upload's answer (services/sessions/mark-evidence.ts).
    registry.register(
      markEvidenceKinds({ db: app.db, log: app.log, kick: () => app.outboxWorker.kick() }),
    );
    registry.register(
      rosterSyncKinds({
        db: app.db,
        toolKeys,
        log: app.log,
        outbound,
        forgetUser: (id) => app.authUsers.forget(id),
        kick: () => app.outboxWorker.kick(),
        now: () => app.clock.now(),
      }),
    );
    const worker = createOutboxWorker({ db: app.db, registry, log: app.log });

    // onClose hooks run last-added first: this one after the job's, whose run in flight finishes
    // before the client closes (its items' leases would make them wait a minute elsewhere).
    app.addHook('onClose', async () => {
      await outbound.close();
    });
    const job = scheduleJob(app, {
      name: 'outbox',
      everyMs: config.outboxPollMs,
      runWhenReady: true,
      // A kick during a run asks for one more round after it, which sees the new items.
      overlap: 'repeat',
      run: async () => {
        // A draining instance finishes its round's items but claims no further batch.
        const result = await worker.drain(() => app.lifecycle.draining);
        if (result.done + result.failed > 0) app.log.info(result, 'outbox round');
      },
      onError: (err) => app.log.error({ err }, 'outbox worker failed'),
    });
    app.decorate('outboxWorker', { kick: job.trigger, idle: job.idle });
  },
  {
    name: 'outbox-worker',
    dependencies: ['config', 'clock', 'db', 'auth-user-cache', 'identity-admin', 'lifecycle', 'metrics'],
  },
);
