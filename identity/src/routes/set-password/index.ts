import { randomBytes } from 'node:crypto';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { IdentityContext } from '../../context';
import { allowOnly } from '../../http/methods';
import { ACTION_TOKEN_PATH, csrfCookie, localeFor, resolveLink } from './link';
import { setPasswordPage } from './page';
import { invalidLink, submitPassword } from './submit';

export { ACTION_TOKEN_PATH } from './link';

/**
 * The page behind the invitation link: the user sets a password and is signed in. The form is
 * protected twice: the action token in it is a secret only the mailbox holds, and a random value
 * in it must match a SameSite=Strict cookie set with the page, so another site cannot post the
 * form with its own link (signing the victim into the attacker's account). Opening the link does
 * not use it up (mail scanners open links); setting the password does.
 */
export async function setPasswordRoutes(app: FastifyInstance, context: IdentityContext) {
  const action = `${context.mountPath}${ACTION_TOKEN_PATH}`;
  const cookiePath = `${context.mountPath}/login-actions`;

  async function show(request: FastifyRequest, reply: FastifyReply) {
    const { key } = request.query as { key?: string };
    const resolved = await resolveLink(context, key);
    if (!resolved) return invalidLink(context, reply, localeFor(request));
    const locale = localeFor(request, resolved.user);
    const csrf = randomBytes(24).toString('base64url');
    const { email } = resolved.user;
    return context.pages.send(reply, 200, (frame) => setPasswordPage(frame, { action, key: key!, csrf, email, locale }), {
      'Set-Cookie': csrfCookie(cookiePath, csrf),
    });
  }

  const submit = (request: FastifyRequest, reply: FastifyReply) => submitPassword(context, { action, cookiePath }, request, reply);

  allowOnly(app, action, { GET: show, HEAD: show, POST: submit });
}
