import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminUser,
  AdminUserInput,
  AdminUserParams,
  BulkUserErrors,
  BulkUserInput,
  BulkUserResult,
  EMAIL_CHANGE_TTL_HOURS,
  FieldErrors,
  INVITATION_RESEND_MINUTES,
  InvitationResult,
  LicenseBlock,
  Paged,
  UserLicenseParams,
  UserListQuery,
} from '@portal/contract';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { bulkAddUsers } from '../../../../services/user/bulk-add-users';
import { cancelUserEmailChange } from '../../../../services/user/cancel-email-change';
import { freeUserSeat } from '../../../../services/user/free-user-seat';
import { removeUser } from '../../../../services/user/remove-user';
import { resendInvitation } from '../../../../services/user/resend-invitation';
import { updateUser } from '../../../../services/user/update-user';
import { visibleUser } from '../../../../services/user/user-access';

const tags = ['user'];

/**
 * Administration of users (docs/requirements.md#administration, #calls): the bulk add from a CSV, one user's details, edit and
 * delete, and their licences. Registered under /api/v1/user beside the user's own routes.
 */
export const userAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repos;

  app.post(
    '',
    {
      config: { permissions: ['global.create_user'] },
      schema: {
        tags,
        summary: 'Add the users of an uploaded CSV to a licence, all or none',
        description:
          'The file must be an upload of POST /api/v1/file/upload/user by the caller, not yet used. ' +
          'A 400 lists every bad row of the file under `rows` as {row, field, message}.',
        body: BulkUserInput,
        response: { 201: BulkUserResult, ...errorResponses, 400: BulkUserErrors },
      },
    },
    async (request, reply) => {
      const result = await bulkAddUsers(app, currentUser(request), request.body);
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/:id',
    {
      config: { permissions: ['global.view_user'] },
      schema: { tags, params: AdminUserParams, response: { 200: AdminUser, ...errorResponses } },
    },
    async (request) => visibleUser(users, currentUser(request), request.params.id),
  );

  app.put(
    '/:id',
    {
      config: { permissions: ['global.update_user'] },
      schema: {
        tags,
        summary: "Change a user's names and role; a new e-mail waits for its owner's consent",
        description:
          'Names and role change at once (the identity account follows). A different e-mail ' +
          'does not: it becomes `pendingEmail`, the new address is sent a confirmation link ' +
          `(valid ${EMAIL_CHANGE_TTL_HOURS} h, POST /api/v1/email-change/confirm) and the old ` +
          'one a notice; a second change replaces the first. 503 `{email}` when those mails ' +
          'could not be sent (the e-mail change is then dropped; other changes stay saved).',
        params: AdminUserParams,
        body: AdminUserInput,
        response: { 200: AdminUser, ...errorResponses, 503: FieldErrors },
      },
    },
    async (request) =>
      updateUser(app, currentUser(request), request.params.id, request.body, request.log),
  );

  app.delete(
    '/:id/email-change',
    {
      config: { permissions: ['global.update_user'] },
      schema: {
        tags,
        summary: "Cancel a user's pending e-mail change; its link stops working",
        description: '404 when the user has no pending change (none, confirmed or expired).',
        params: AdminUserParams,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      await cancelUserEmailChange(app, currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/:id',
    {
      config: { permissions: ['global.remove_user'] },
      schema: {
        tags,
        summary: 'Delete a user and their account; their seats are freed',
        params: AdminUserParams,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeUser(app, currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/:id/invitation',
    {
      config: { permissions: ['global.update_user'] },
      schema: {
        tags,
        summary: "Send an invited user's set-password invitation again",
        description:
          'For an invitation that was lost, or whose sending had an unknown outcome. Queued ' +
          `through the outbox; a repeat within ${INVITATION_RESEND_MINUTES} minutes answers the ` +
          'invitation already on its way (`queued` false) and sends no second e-mail. 400 for a ' +
          'user who has signed in or whose account is still being set up.',
        params: AdminUserParams,
        response: { 202: InvitationResult, ...errorResponses },
      },
    },
    async (request, reply) => {
      const result = await resendInvitation(app, currentUser(request), request.params.id);
      return reply.code(202).send(result);
    },
  );

  app.get(
    '/:id/license-block',
    {
      config: { permissions: ['global.view_user'] },
      schema: {
        tags,
        summary: 'The licences a user holds a seat of',
        params: AdminUserParams,
        querystring: UserListQuery,
        response: { 200: Paged(LicenseBlock), ...errorResponses },
      },
    },
    async (request) => {
      const user = await visibleUser(users, currentUser(request), request.params.id);
      return app.repos.licenses.list({ heldBy: user.id }, request.query);
    },
  );

  app.delete(
    '/:id/license-block/:licenseId',
    {
      config: { permissions: ['global.unassign_license'] },
      schema: {
        tags,
        summary: "Free the user's seat of a licence",
        params: UserLicenseParams,
        response: { 204: { type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id, licenseId } = request.params;
      await freeUserSeat(app, currentUser(request), id, licenseId);
      return reply.code(204).send();
    },
  );
};

export default userAdminRoutes;
