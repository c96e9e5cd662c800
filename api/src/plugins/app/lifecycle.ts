import fp from 'fastify-plugin';
import { Type } from '@fastify/type-provider-typebox';
import { createLifecycle, serveReadiness } from '@portal/service-kit';
import { readMigrations } from '../../db/migrate';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Whether this instance is draining (a SIGTERM came): /readyz says 503 at once, the timers
     * and the outbox take no new work, requests in flight finish (server.ts).
     */
    lifecycle: ReturnType<typeof createLifecycle>;
  }
}

export interface LifecyclePluginOptions {
  /** The process's lifecycle (server.ts drains it on SIGTERM); tests drain their own. */
  lifecycle?: ReturnType<typeof createLifecycle>;
}

const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  reason: Type.Optional(
    Type.Union([Type.Literal('draining'), Type.Literal('database'), Type.Literal('migrations')]),
  ),
});

/**
 * GET /readyz, apart from /healthz (liveness): ready while not draining, the database answers
 * within service-kit's short timeout and has every migration this release knows. A newer release
 * that migrated further leaves this one ready (migrations only add); one that finds a migration
 * of its own missing (restored database, another release's start failed half-way) is not.
 */
export const lifecyclePlugin = fp<LifecyclePluginOptions>(
  async (app, options) => {
    const lifecycle = options.lifecycle ?? createLifecycle();
    app.decorate('lifecycle', lifecycle);
    const versions = (await readMigrations()).map((migration) => migration.version);
    serveReadiness(app, {
      lifecycle,
      failureReason: 'database',
      check: async () =>
        (await app.repos.health.appliedMigrations(versions)) === versions.length
          ? null
          : 'migrations',
      routeConfig: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Readiness: database reachable, migrations done, not draining',
        response: { 200: Readiness, 503: Readiness },
      },
    });
  },
  { name: 'lifecycle', dependencies: ['repositories'] },
);
