import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EMAIL_CHANGE_TTL_HOURS,
  EmailChangeConfirmed,
  EmailChangePreview,
  EmailChangeRefusal,
  EmailChangeTokenInput,
  FieldErrors,
} from '@portal/contract';
import { confirmEmailChange } from '../../../../services/email-change/confirm-email-change';
import { previewEmailChange } from '../../../../services/email-change/email-change-link';

const tags = ['user'];

const refusals = {
  400: FieldErrors,
  404: EmailChangeRefusal,
  409: EmailChangeRefusal,
  410: EmailChangeRefusal,
};

/**
 * The confirmation link of an e-mail change (issue #20), used from the host's /confirm-email
 * page. Public: whoever holds the token proved they read the new address's mail; the user need
 * not be signed in. POST only, with the token in the body: mail scanners that follow a link
 * (GET) must not use it up, and the token never appears in a URL or a request log. No XSRF
 * check: no cookie or bearer credential is involved, so a cross-site request could only send a
 * token its sender already has.
 */
export const emailChangeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/lookup',
    {
      config: { public: true, xsrf: false },
      schema: {
        tags,
        summary: 'What a confirmation link would confirm; uses nothing up',
        body: EmailChangeTokenInput,
        response: { 200: EmailChangePreview, ...refusals },
      },
    },
    async (request) => previewEmailChange(app.repos.emailChanges, request.body.token),
  );

  app.post(
    '/confirm',
    {
      config: { public: true, xsrf: false },
      schema: {
        tags,
        summary: "Use a confirmation link: the user's e-mail becomes the pending one",
        description:
          `Single use; links expire ${EMAIL_CHANGE_TTL_HOURS} h after the change was asked for. ` +
          'The identity account follows through the outbox, its e-mail marked verified. ' +
          '404 `invalid` (unknown, replaced or cancelled), 410 `expired`, 409 `used` or `taken`.',
        body: EmailChangeTokenInput,
        response: { 200: EmailChangeConfirmed, ...refusals },
      },
    },
    async (request) => {
      const user = await confirmEmailChange(app, request.body.token);
      return { email: user.email };
    },
  );
};

export default emailChangeRoutes;
