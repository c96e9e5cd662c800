import type { FastifyInstance } from 'fastify';

export async function healthRoutes(app: FastifyInstance) {
  app.all('/healthz', async (_request, reply) => reply.send({ status: 'ok' }));
}
