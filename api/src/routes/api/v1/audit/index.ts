import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditEntry, AuditListQuery, Paged } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { audit } = app.repos;

  app.get(
    '',
    {
      config: { permissions: ['global.view_org'] },
      schema: {
        tags: ['audit'],
        summary:
          "The audit log of admin writes: everything for global administrators, the own organisation's entries for organisation administrators",
        querystring: AuditListQuery,
        response: { 200: Paged(AuditEntry), ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { organisation } = request.query;
      if (isGlobalAdmin(user)) return audit.list(request.query, organisation ?? null);
      // The organisation page shows its history to its own administrators; entries of other
      // organisations, and the global ones, are not theirs to read.
      if (user.organisationId === null) throw notFound();
      if (organisation !== undefined && organisation !== user.organisationId) throw notFound();
      return audit.list(request.query, user.organisationId);
    },
  );
};

export default auditRoutes;
