import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  NotificationList,
  NotificationQuery,
  UserNotificationList,
  UserNotificationParams,
} from '@portal/contract';
import { notFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';

/** GET /api/v1/notification: the notifications tab of the administration. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { notifications, feedback } = app.repos;

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

  // The signed-in user's own notifications (new feedback on a report, issue #23 point 3). Object
  // scope: the caller's rows only; another user's id answers 404.
  app.get(
    '/mine',
    {
      config: { permissions: ['global.view_own_reports'] },
      schema: {
        tags: ['notification'],
        summary: "The caller's notifications, newest first (the last 50)",
        response: { 200: UserNotificationList, ...errorResponses },
      },
    },
    async (request) => feedback.listMine(currentUser(request).id),
  );

  app.post(
    '/mine/:notificationId/read',
    {
      config: { permissions: ['global.view_own_reports'] },
      schema: {
        tags: ['notification'],
        summary: "Marks one of the caller's notifications read",
        params: UserNotificationParams,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const read = await feedback.markRead(currentUser(request).id, request.params.notificationId);
      if (!read) throw notFound();
      return reply.code(204).send();
    },
  );
};

export default notificationRoutes;
