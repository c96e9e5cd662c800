import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AdminUser,
  AdminUserInput,
  AdminUserParams,
  BulkUserErrors,
  BulkUserInput,
  BulkUserResult,
  EMAIL_CHANGE_MESSAGES,
  EMAIL_CHANGE_TTL_HOURS,
  FieldErrors,
  INVITATION_RESEND_MINUTES,
  InvitationResult,
  LicenseBlock,
  NON_FIELD_ERRORS,
  Paged,
  PERMISSION_DENIED,
  USER_ADMIN_MESSAGES as M,
  UserLicenseParams,
  UserListQuery,
} from '@portal/contract';
import {
  cancelEmailChange,
  requestEmailChange,
  withdrawEmailChange,
} from '../../../../identity/email-change';
import {
  deleteAccountItem,
  IDENTITY_KINDS,
  invitationItem,
  updateAccountItem,
} from '../../../../identity/provisioning';
import { emailError, nameError } from '../../../../lib/csv/users-csv';
import { ApiError, badRequest, forbidden, notFound } from '../../../../lib/http-errors';
import { isGlobalAdmin } from '../../../../lib/object-access';
import { errorResponses } from '../../../../lib/route-schemas';
import { currentUser } from '../../../../plugins/app/auth';
import { recordAudit } from '../../../../repositories/audit-repository';
import { unassignUser } from '../../../../repositories/license-repository';
import { enqueue } from '../../../../repositories/outbox-repository';
import {
  emailsInUse,
  findAdminUser,
  findRole,
  identitySubOf,
  lockGlobalAdmins,
  type AuthUser,
} from '../../../../repositories/user-repository';
import { bulkAddUsers } from './bulk-add';

const tags = ['user'];

/** Global administrators see every user; everyone else only their own organisation's. */
export function canSeeUser(actor: AuthUser, user: { organisation: number | null }): boolean {
  return (
    isGlobalAdmin(actor) ||
    (actor.organisationId !== null && user.organisation === actor.organisationId)
  );
}

/**
 * Administration of users (spec §2, §7): the bulk add from a CSV, one user's details, edit and
 * delete, and their licences. Registered under /api/v1/user beside the user's own routes.
 */
export const userAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.repos;

  /** The user if the caller may see them, else 404 (other organisations' users do not exist). */
  async function visibleUser(actor: AuthUser, id: string): Promise<AdminUser> {
    const user = await findAdminUser(app.db, id);
    if (!user || !canSeeUser(actor, user)) throw notFound();
    return user;
  }

  /** Only global administrators touch a global administrator's account. */
  async function assertMayChange(actor: AuthUser, user: AdminUser) {
    const role = await findRole(app.db, user.userRole);
    if (role?.isGlobal && !isGlobalAdmin(actor)) throw forbidden(PERMISSION_DENIED);
    return role;
  }

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
    async (request) => visibleUser(currentUser(request), request.params.id),
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
    async (request) => {
      const actor = currentUser(request);
      const before = await visibleUser(actor, request.params.id);
      const currentRole = await assertMayChange(actor, before);

      const body = request.body;
      const firstName = body.firstName.trim();
      const lastName = body.lastName.trim();
      const email = body.email.trim().toLowerCase();
      const errors: FieldErrors = {};
      const check = (field: string, error: string | null) => {
        if (error) errors[field] = [error];
      };
      check('firstName', nameError(firstName));
      check('lastName', nameError(lastName));
      check('email', emailError(email));
      const emailChanged = email !== before.email.toLowerCase();
      if (emailChanged && !errors.email && !app.mailer)
        errors.email = [EMAIL_CHANGE_MESSAGES.noMailer];
      const role = await findRole(app.db, body.userRole);
      if (!role) errors.userRole = [M.invalidChoice];
      else if (role.isGlobal !== (currentRole?.isGlobal ?? false) && !isGlobalAdmin(actor)) {
        errors.userRole = [M.sysAdminOnly];
      }
      if (Object.keys(errors).length > 0 || !role) throw badRequest(errors);

      const { after, requested } = await app.db.transaction(async (tx) => {
        if (currentRole?.isGlobal && !role.isGlobal) {
          const admins = await lockGlobalAdmins(tx);
          if (!admins.some((id) => id !== before.id))
            throw badRequest({ userRole: [M.lastGlobalAdmin] });
        }
        if (emailChanged && (await emailsInUse(tx, [email])).size > 0) {
          throw badRequest({ email: [M.emailTaken] });
        }
        // The e-mail is not written here: it changes only when the new address confirms it.
        await tx.query(
          `update users set first_name = $2, last_name = $3, role_id = $4, updated_at = now()
            where id = $1`,
          [before.id, firstName, lastName, role.id],
        );
        const changed = (await findAdminUser(tx, before.id))!;
        const namesChanged =
          changed.firstName !== before.firstName || changed.lastName !== before.lastName;
        if (namesChanged) await enqueue(tx, [updateAccountItem(changed)]);
        if (namesChanged || changed.userRole !== before.userRole) {
          await recordAudit(tx, {
            actor,
            action: 'update',
            entityType: 'user',
            entityId: before.id,
            organisationId: before.organisation,
            before,
            after: changed,
          });
        }
        if (!emailChanged) return { after: changed, requested: null };
        const change = await requestEmailChange(tx, {
          user: changed,
          newEmail: email,
          actor,
          settings: { portalUrl: app.config.portalUrl, productName: app.config.mail!.productName },
        });
        return { after: (await findAdminUser(tx, before.id))!, requested: change };
      });
      // Role and names are part of the signed-in user: their next call must see the change.
      users.forget(after.id);
      app.outboxWorker.kick();
      if (requested) {
        try {
          // Both or the change is withdrawn: the old address must hear of any change that can
          // still be confirmed.
          await Promise.all(requested.mails.map((mail) => app.mailer!.send(mail)));
        } catch (error) {
          request.log.error({ err: error, userId: after.id }, 'e-mail change mails not sent');
          await withdrawEmailChange(app.db, requested.token);
          throw new ApiError(503, { email: [EMAIL_CHANGE_MESSAGES.notSent] });
        }
      }
      return after;
    },
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
      const actor = currentUser(request);
      const user = await visibleUser(actor, request.params.id);
      await assertMayChange(actor, user);
      const cancelled = await app.db.transaction((tx) => cancelEmailChange(tx, { user, actor }));
      if (!cancelled) throw notFound();
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
      const actor = currentUser(request);
      const user = await visibleUser(actor, request.params.id);
      if (user.id === actor.id) throw badRequest({ [NON_FIELD_ERRORS]: [M.deleteSelf] });
      const role = await assertMayChange(actor, user);

      await app.db.transaction(async (tx) => {
        if (role?.isGlobal) {
          const admins = await lockGlobalAdmins(tx);
          if (!admins.some((id) => id !== user.id)) {
            throw badRequest({ [NON_FIELD_ERRORS]: [M.lastGlobalAdmin] });
          }
        }
        const sub = await identitySubOf(tx, user.id);
        // Seats go with the user (cascade), and the seat counts follow (migration 0005).
        const deleted = await tx.query('delete from users where id = $1', [user.id]);
        if (deleted.rowCount === 0) throw notFound();
        await enqueue(tx, [deleteAccountItem({ id: user.id, email: user.email, sub })]);
        await recordAudit(tx, {
          actor,
          action: 'delete',
          entityType: 'user',
          entityId: user.id,
          organisationId: user.organisation,
          before: user,
          after: null,
        });
      });
      users.forget(user.id);
      app.outboxWorker.kick();
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
      const actor = currentUser(request);
      const user = await visibleUser(actor, request.params.id);
      await assertMayChange(actor, user);
      const result = await app.db.transaction(async (tx): Promise<InvitationResult> => {
        // Locked: two resends at once queue here, and the second finds the first one's item.
        const locked = await tx.query<{ status: string }>(
          'select account_status as status from users where id = $1 for update',
          [user.id],
        );
        const status = locked.rows[0]?.status;
        if (status === undefined) throw notFound();
        if (status === 'active') {
          throw badRequest({ [NON_FIELD_ERRORS]: [M.invitationAccepted] });
        }
        if (status !== 'invited') throw badRequest({ [NON_FIELD_ERRORS]: [M.invitationPending] });
        const recent = await tx.query<{ at: Date | string }>(
          `select created_at as at from outbox
            where key = $1 and kind = $2
              and (done_at is null or created_at > now() - $3::integer * interval '1 minute')
            order by id desc limit 1`,
          [invitationItem(user).key, IDENTITY_KINDS.invite, INVITATION_RESEND_MINUTES],
        );
        const previous = recent.rows[0];
        if (previous) return { queuedAt: new Date(previous.at).toISOString(), queued: false };
        await enqueue(tx, [invitationItem(user)]);
        await recordAudit(tx, {
          actor,
          action: 'invite',
          entityType: 'user',
          entityId: user.id,
          organisationId: user.organisation,
          before: null,
          after: { email: user.email, accountStatus: status },
        });
        const now = await tx.query<{ at: Date | string }>('select now() as at');
        return { queuedAt: new Date(now.rows[0]!.at).toISOString(), queued: true };
      });
      if (result.queued) app.outboxWorker.kick();
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
      const user = await visibleUser(currentUser(request), request.params.id);
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
      const actor = currentUser(request);
      const user = await visibleUser(actor, request.params.id);
      const removed = await app.db.transaction((tx) =>
        unassignUser(tx, {
          licenseBlockId: request.params.licenseId,
          userId: user.id,
          organisationId: isGlobalAdmin(actor) ? null : actor.organisationId,
          actor,
        }),
      );
      if (!removed) throw notFound();
      // Entitlements come from seats; the user's next call must not see the old ones.
      users.forget(user.id);
      return reply.code(204).send();
    },
  );
};
