import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { timingSafeEqual } from 'node:crypto';
import type { BrightspaceAuthError } from '@portal/contract';
import {
  authorizationUrl,
  BRIGHTSPACE_COOKIE_PATH,
  BRIGHTSPACE_STATE_PATTERN,
  brightspaceCookieName,
  BrightspaceError,
  exchangeCode,
  fetchWhoami,
} from '../../../brightspace/oauth';
import { createOutboundClient, outboundPolicyFor } from '../../../lib/outbound-http';
import { hashBrowserSecret } from '../../../repositories/brightspace-repository';
import { consumeBrightspaceState } from '../../../services/brightspace/brightspace-sign-in-state';
import { linkBrightspaceAccount } from '../../../services/brightspace/link-brightspace-account';

const tags = ['brightspace'];

const Param = (max: number) => Type.Optional(Type.String({ maxLength: max }));

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The browser half of the Brightspace OAuth 2.0 authorization-code flow (issue #10 point 6).
 * A full-page navigation carries no bearer token, so the signed-in user starts the round trip
 * with `POST /api/v1/user/brightspace-auth` (authenticated, XSRF-checked), which stores a
 * single-use state bound to them and their redirect path and sets a cookie only this browser
 * has; the host then navigates to the URL it answers. These two routes are public and trust
 * nothing but that state and cookie. Every failure ends on the host's error page, never a 500.
 */
const brightspaceAuthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const states = app.repos.brightspace;
  const { portalUrl, brightspace } = app.config;
  // Token and whoami calls go through the guarded client, as every call to a platform does.
  const outbound = createOutboundClient({ policy: outboundPolicyFor(portalUrl) });
  app.addHook('onClose', () => outbound.close());
  const callbackUrl = `${portalUrl}${BRIGHTSPACE_COOKIE_PATH}/callback`;

  const toError = (reply: FastifyReply, error: BrightspaceAuthError) =>
    reply.redirect(`/brightspace-auth/error?error=${encodeURIComponent(error)}`, 302);

  /** The state's browser secret from this request's cookie matches what was stored. */
  const fromThisBrowser = (request: FastifyRequest, state: string, browserHash: string) => {
    const secret = request.cookies[brightspaceCookieName(state)];
    return typeof secret === 'string' && sameHash(hashBrowserSecret(secret), browserHash);
  };

  app.get(
    '/',
    {
      // A HEAD is a GET for the router; it must do nothing a GET would not.
      exposeHeadRoute: false,
      config: { public: true },
      schema: {
        tags,
        summary:
          'Full-page redirect to Brightspace to sign in (state from POST /api/v1/user/brightspace-auth)',
        // `redirect_path` is the one docs/requirements.md#calls names; the state's own copy is the one used, so editing the
        // URL cannot change where the callback goes.
        querystring: Type.Object({ redirect_path: Param(2000), state: Param(200) }),
      },
    },
    async (request, reply) => {
      const { state } = request.query;
      if (!brightspace || !state || !BRIGHTSPACE_STATE_PATTERN.test(state)) {
        return toError(reply, 'INVALID_STATE');
      }
      const pending = await states.pendingState(state);
      if (!pending || !fromThisBrowser(request, state, pending.browserHash)) {
        return toError(reply, 'INVALID_STATE');
      }
      return reply.redirect(authorizationUrl(brightspace, callbackUrl, state), 302);
    },
  );

  app.get(
    '/callback',
    {
      exposeHeadRoute: false,
      config: { public: true },
      schema: {
        tags,
        summary: 'Brightspace OAuth callback: links the Brightspace user, back to redirect_path',
        querystring: Type.Object({
          code: Param(4000),
          state: Param(200),
          error: Param(200),
          error_description: Param(2000),
        }),
      },
    },
    async (request, reply) => {
      const { code, state, error } = request.query;
      if (!brightspace || !state || !BRIGHTSPACE_STATE_PATTERN.test(state)) {
        return toError(reply, 'INVALID_STATE');
      }
      reply.clearCookie(brightspaceCookieName(state), { path: BRIGHTSPACE_COOKIE_PATH });
      // Used up whatever happens next: a code or refusal is answered once.
      const started = await consumeBrightspaceState(app, state);
      if (!started || !fromThisBrowser(request, state, started.browserHash)) {
        return toError(reply, 'INVALID_STATE');
      }
      if (error !== undefined) {
        request.log.info({ brightspace: error }, 'Brightspace sign-in refused');
        return toError(reply, error === 'access_denied' ? 'ACCESS_DENIED' : 'BRIGHTSPACE_FAILED');
      }
      if (!code) return toError(reply, 'BRIGHTSPACE_FAILED');
      try {
        const token = await exchangeCode(brightspace, code, callbackUrl, outbound);
        const user = await fetchWhoami(brightspace, token, outbound);
        if (!(await linkBrightspaceAccount(app, started.userId, user))) {
          return toError(reply, 'INVALID_STATE');
        }
      } catch (failure) {
        if (!(failure instanceof BrightspaceError)) throw failure;
        request.log.warn({ err: failure }, 'Brightspace sign-in failed');
        return toError(reply, 'BRIGHTSPACE_FAILED');
      }
      return reply.redirect(started.redirectPath, 302);
    },
  );
};

export default brightspaceAuthRoutes;
