import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { HttpError } from '../../http/errors';
import { allowOnly } from '../../http/methods';
import { DEFAULT_LOCALE, type Locale, localeFromCookieHeader } from '../../i18n/locale';
import { INTERACTION_PATH } from '../../oidc/provider';
import { messagePage } from '../../views/message-page';
import { DEVICE_PROMPT } from '../device-flow';
import { finishConsent } from './consent';
import { interactionFor, type InteractionDetails } from './details';
import { finishDeviceConfirm, showDeviceConfirm } from './device-confirm';
import { UPDATE_PASSWORD_PROMPT } from './kc-action';
import { brokeredSignIn } from './brokered-sign-in';
import { showSignIn, submitSignIn } from './sign-in';
import { showUpdatePassword, submitUpdatePassword } from './update-password';

const UID = /^[A-Za-z0-9_-]+$/;

interface InteractionParams {
  uid: string;
}

/** What each form post of an interaction needs the interaction to be asking for. */
const POSTS = {
  login: { prompt: 'login', unexpected: 'This interaction does not expect a sign-in.', finish: submitSignIn },
  device: { prompt: DEVICE_PROMPT, unexpected: 'This interaction does not expect a device decision.', finish: finishDeviceConfirm },
  'update-password': {
    prompt: UPDATE_PASSWORD_PROMPT,
    unexpected: 'This interaction does not expect a password change.',
    finish: submitUpdatePassword,
  },
} as const;

/**
 * Our sign-in, device confirmation and change-password pages. The provider sends the browser to
 * `{realm}/interaction/{uid}` whenever it needs the user; the forms post to
 * `{realm}/interaction/{uid}/login`, `/device` or `/update-password` (below the interaction cookie's path, so the
 * cookie comes along).
 */
export async function interactionRoutes(app: FastifyInstance, context: IdentityContext) {
  const { mountPath, pages } = context;
  const base = `${mountPath}${INTERACTION_PATH}`;
  const localeOf = (request: FastifyRequest): Locale => localeFromCookieHeader(request.headers.cookie) ?? DEFAULT_LOCALE;

  const notFound = async (_request: FastifyRequest, reply: FastifyReply) =>
    pages.send(reply, 404, (frame) => messagePage(frame, { title: 'Page not found', message: 'There is no page here.' }));

  const expired = (reply: FastifyReply) =>
    pages.send(reply, 400, (frame) =>
      messagePage(frame, {
        title: 'Sign-in expired',
        message: 'This sign-in page has expired. Return to the application and sign in again.',
      }),
    );

  /** Runs `then` with the interaction of a well-formed uid, or answers 404 / expired. */
  const withInteraction =
    (then: (request: FastifyRequest, reply: FastifyReply, details: InteractionDetails, locale: Locale) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const { uid } = request.params as InteractionParams;
      if (!UID.test(uid)) return notFound(request, reply);
      const locale = localeOf(request);
      const details = await interactionFor(context.provider, request, reply, uid);
      if (!details) return expired(reply);
      return then(request, reply, details, locale);
    };

  const show = withInteraction(async (request, reply, details, locale) => {
    if (details.prompt.name === 'consent') return finishConsent(context, request, reply, details);
    if (details.prompt.name === DEVICE_PROMPT) return showDeviceConfirm(context, reply, details, locale);
    if (details.prompt.name === UPDATE_PASSWORD_PROMPT) return showUpdatePassword(context, request, reply, details);
    if (await brokeredSignIn(context, request, reply, details, locale)) return reply;
    const loginHint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
    return showSignIn(context, reply, details.uid, locale, { email: loginHint });
  });
  allowOnly(app, `${base}/:uid`, { GET: show, HEAD: show });

  for (const [action, post] of Object.entries(POSTS)) {
    const submit = withInteraction(async (request, reply, details, locale) => {
      if (details.prompt.name !== post.prompt) throw new HttpError(400, post.unexpected);
      return post.finish(context, request, reply, details, locale);
    });
    allowOnly(app, `${base}/:uid/${action}`, { POST: submit });
  }
  app.all(`${base}/*`, notFound);
}
