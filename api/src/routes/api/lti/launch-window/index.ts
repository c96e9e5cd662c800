import { bindBrokerSignIn } from '../../../../lti/broker/bind-sign-in';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  FieldErrors,
  LTI_FRAME_MESSAGES,
  LtiLaunchBrowserStatus,
  LtiLaunchTicket,
  LtiLaunchTicketRedeem,
  LtiLaunchTicketRedeemed,
  LtiLaunchTicketRequest,
  LtiLaunchWindowParams,
} from '@portal/contract';
import { badRequest } from '../../../../lib/http-errors';
import {
  launchBrowserCookieOf,
  setLaunchBrowserCookie,
} from '../../../../lti/launch-browser-cookie';
import { launchPagePath } from '../../../../lti/launch-page-location';
import {
  createLtiLaunchBrowserRepository,
  LAUNCH_TICKET_SECONDS,
} from '../../../../repositories/lti-launch-browser-repository';

const tags = ['lti'];

/**
 * "Open in a new window" (issue #22 point 2). A launch inside the platform's iframe may be unable
 * to keep the launch's cookie (third-party cookies blocked); the launch page then trades the key
 * it got in its URL fragment for a ticket, and the new window — top level, first party — redeems
 * it for the cookie. All public: the browser has no portal sign-in yet. What stands for it
 * instead is a secret it holds: the frame key (only the launch's answer handed it out), the
 * ticket (single use, two minutes), the cookie (stored hashed).
 */
const ltiLaunchWindowRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const browsers = createLtiLaunchBrowserRepository(app.db);
  const { portalUrl } = app.config;

  app.get(
    '/:launchId',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Whether this browser holds the launch's cookie (a frame may not keep it)",
        params: LtiLaunchWindowParams,
        response: { 200: LtiLaunchBrowserStatus },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const cookie = launchBrowserCookieOf(request);
      return { cookie: await browsers.holds(request.params.launchId, cookie) };
    },
  );

  app.post(
    '/:launchId/ticket',
    {
      // Called from the platform's frame, where the XSRF cookie may be blocked like any other;
      // no ambient credential is used, the frame key in the body is the proof.
      config: { public: true, xsrf: false },
      schema: {
        tags,
        summary: 'A single-use ticket (two minutes) to continue the launch in a new window',
        params: LtiLaunchWindowParams,
        body: LtiLaunchTicketRequest,
        response: { 201: LtiLaunchTicket, 400: FieldErrors },
      },
    },
    async (request, reply) => {
      const ticket = await browsers.issueTicket(request.params.launchId, request.body.frameKey);
      if (ticket === null) throw badRequest({ frameKey: [LTI_FRAME_MESSAGES.frameKey] });
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ ticket, expiresInSeconds: LAUNCH_TICKET_SECONDS });
    },
  );

  app.post(
    '/redeem',
    {
      // The new window may have no XSRF cookie yet (its first call to the API). A cross-site form
      // cannot redeem for the browser all the same: this route reads JSON only (no form or text
      // parser here), and a page of another origin can send JSON only after a CORS preflight the
      // API never grants.
      config: { public: true, xsrf: false },
      schema: {
        tags,
        summary: "Redeems a new-window ticket: sets the launch's cookie, answers where to go on",
        body: LtiLaunchTicketRedeem,
        response: { 200: LtiLaunchTicketRedeemed, 400: FieldErrors },
      },
    },
    async (request, reply) => {
      const redeemed = await browsers.redeemTicket(request.body.ticket);
      if (redeemed === null) throw badRequest({ ticket: [LTI_FRAME_MESSAGES.ticket] });
      setLaunchBrowserCookie(reply, portalUrl, redeemed.cookie);
      // The new window signs in by the launch as the frame would have (a fresh broker binding).
      const idp = await bindBrokerSignIn(app, reply, redeemed.launchId);
      reply.header('cache-control', 'no-store');
      return {
        launchId: redeemed.launchId,
        location: launchPagePath(redeemed.launchId, redeemed.custom, { idp }),
      };
    },
  );
};

export default ltiLaunchWindowRoutes;
