import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
});

/** GET /healthz: liveness, with the database reachable. */
export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: { 200: Health, 503: Health },
      },
    },
    async (request, reply) => {
      try {
        await app.repos.health.ping();
        return { status: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable' as const });
      }
    },
  );
};

export default healthRoutes;
