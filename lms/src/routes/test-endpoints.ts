import type { FastifyInstance } from 'fastify';
import { isLoopback, type LmsContext } from '../context';

/**
 * For test suites only (LMS_TEST_ENDPOINTS=1 or the `testEndpoints` option), and from loopback
 * only: the received scores as JSON, and the outage switch for the portal's grade retries.
 */
export function testRoutes(app: FastifyInstance, ctx: LmsContext) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/test/') && !isLoopback(request)) return reply.code(404).send({ error: 'not_found' });
  });

  app.get('/test/scores', async () =>
    ctx.store.lineItems().map((item) => ({
      lineItem: `${ctx.issuer}/ags/lineitems/${item.id}`,
      label: item.label,
      resourceLinkId: item.resourceLinkId,
      scores: ctx.store.scoresOf(item.id),
    })),
  );

  app.get('/test/links', async () => ctx.store.links());

  app.post<{ Body: { down?: unknown } }>('/test/outage', async (request, reply) => {
    if (typeof request.body?.down !== 'boolean') return reply.code(400).send({ down: ['must be true or false'] });
    ctx.outage.down = request.body.down;
    return { down: ctx.outage.down };
  });
}
