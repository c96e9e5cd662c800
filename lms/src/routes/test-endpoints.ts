import type { FastifyInstance } from 'fastify';
import { isLoopback, type LmsContext } from '../context';
import { MEMBER_STATUSES, type MemberStatus } from '../roster';

/**
 * For test suites only (LMS_TEST_ENDPOINTS=1 or the `testEndpoints` option), and from loopback
 * only: the received scores as JSON, the outage switch for the portal's grade retries, and the
 * course roster's changes and faults for the portal's roster sync (NRPS).
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

  const nrpsState = () => ({
    members: ctx.roster.members().length,
    removed: ctx.roster.snapshot().removed,
    statuses: ctx.roster.snapshot().statuses,
    down: ctx.nrps.down,
    refuseTokens: ctx.nrps.refuseTokens,
  });
  app.get('/test/nrps', async () => nrpsState());

  /** The member leaves the course: absent from the memberships (NRPS 2.0: an absent member has left). */
  app.delete<{ Params: { userId: string } }>('/test/nrps/members/:userId', async (request, reply) => {
    const { userId } = request.params;
    if (!ctx.roster.known(userId)) return reply.code(404).send({ userId: ['is not a member of the course'] });
    ctx.roster.remove(userId);
    return nrpsState();
  });

  /** Sets a member's status; a member who left is back with it. */
  app.put<{ Params: { userId: string }; Body: { status?: unknown } }>('/test/nrps/members/:userId', async (request, reply) => {
    const status = request.body?.status;
    if (typeof status !== 'string' || !(MEMBER_STATUSES as readonly string[]).includes(status)) {
      return reply.code(400).send({ status: [`must be one of ${MEMBER_STATUSES.join(', ')}`] });
    }
    const member = ctx.roster.setStatus(request.params.userId, status as MemberStatus);
    if (!member) return reply.code(404).send({ userId: ['is not a member of the course'] });
    return member;
  });

  /** `down`: the memberships endpoint answers 503; `refuseTokens`: NRPS tokens are refused (400 invalid_scope) and held ones answer 401. */
  app.post<{ Body: { down?: unknown; refuseTokens?: unknown } }>('/test/nrps/faults', async (request, reply) => {
    const body = request.body ?? {};
    const errors: Record<string, string[]> = {};
    for (const field of ['down', 'refuseTokens'] as const) {
      if (body[field] !== undefined && typeof body[field] !== 'boolean') errors[field] = ['must be true or false'];
    }
    if (body.down === undefined && body.refuseTokens === undefined) errors.body = ['must set down or refuseTokens'];
    if (Object.keys(errors).length) return reply.code(400).send(errors);
    if (typeof body.down === 'boolean') ctx.nrps.down = body.down;
    if (typeof body.refuseTokens === 'boolean') ctx.nrps.refuseTokens = body.refuseTokens;
    return nrpsState();
  });

  /** Back to the 120 members of a fresh platform, no faults. */
  app.post('/test/nrps/reset', async () => {
    ctx.roster.reset();
    ctx.nrps.down = false;
    ctx.nrps.refuseTokens = false;
    return nrpsState();
  });
}
