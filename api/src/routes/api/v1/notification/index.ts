import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotificationList, NotificationQuery } from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';

/** GET /api/v1/notification: the notifications tab of the administration. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { notifications } = app.repos;

  app.get(
    '',
    {
      config: { permissions: ['global.view_license_block'] },
      schema: {
        tags: ['notification'],
        summary:
          "Licences ending, ended or nearly full: every organisation's for global administrators, the own organisation's for organisation administrators",
        querystring: NotificationQuery,
        response: { 200: NotificationList, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { organisation } = request.query;
      if (isGlobalAdmin(user)) return notifications.list(organisation ?? null);
      // Another organisation's licences are not theirs to hear about; its id answers as unknown.
      if (user.organisationId === null) throw notFound();
      if (organisation !== undefined && organisation !== user.organisationId) throw notFound();
      return notifications.list(user.organisationId);
    },
  );
};

export default notificationRoutes;
