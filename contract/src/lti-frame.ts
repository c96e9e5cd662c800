import { Type, type Static } from '@sinclair/typebox';
import { LtiDeepLinkParams } from './lti';

/**
 * Embedded launches (issue #22 point 2): the origins that may frame the portal's LTI pages, and the
 * "Open in a new window" ticket that continues a launch whose frame cannot keep its cookie.
 */

/**
 * GET /api/lti/frame-origins: every origin a registered platform's pages are served from (its
 * issuer, its authorization endpoint), shape-checked. The host's `/lti/` pages send them as
 * `frame-ancestors`; `version` changes whenever the list does (also the ETag).
 */
export const LtiFrameOrigins = Type.Object({
  version: Type.String(),
  origins: Type.Array(Type.String()),
});
export type LtiFrameOrigins = Static<typeof LtiFrameOrigins>;

export const LtiLaunchWindowParams = Type.Object({
  launchId: LtiDeepLinkParams.properties.launchId,
});
export type LtiLaunchWindowParams = Static<typeof LtiLaunchWindowParams>;

/** GET /api/lti/launch-window/{launchId}: whether this browser holds the launch's cookie. */
export const LtiLaunchBrowserStatus = Type.Object({ cookie: Type.Boolean() });
export type LtiLaunchBrowserStatus = Static<typeof LtiLaunchBrowserStatus>;

/** base64url of 32 random bytes, as the API hands frame keys and tickets out. */
const Secret = Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' });

/** POST /api/lti/launch-window/{launchId}/ticket: the key the launch page got in its URL fragment. */
export const LtiLaunchTicketRequest = Type.Object({ frameKey: Secret });
export type LtiLaunchTicketRequest = Static<typeof LtiLaunchTicketRequest>;

/** A single-use ticket for the new window, good for `expiresInSeconds` (at most 120). */
export const LtiLaunchTicket = Type.Object({
  ticket: Type.String(),
  expiresInSeconds: Type.Integer(),
});
export type LtiLaunchTicket = Static<typeof LtiLaunchTicket>;

/** POST /api/lti/launch-window/redeem: the ticket, once; the answer says where the launch goes on. */
export const LtiLaunchTicketRedeem = Type.Object({ ticket: Secret });
export type LtiLaunchTicketRedeem = Static<typeof LtiLaunchTicketRedeem>;

export const LtiLaunchTicketRedeemed = Type.Object({
  launchId: Type.String(),
  /** The host's `/lti/launch?launchId=…` with the launch's parameters, a relative path. */
  location: Type.String(),
});
export type LtiLaunchTicketRedeemed = Static<typeof LtiLaunchTicketRedeemed>;

/** Where the launch page puts its frame key: `/lti/launch?…#frameKey=…` (never sent to a server). */
export const LTI_FRAME_KEY_FRAGMENT = 'frameKey';
/** Where the new window gets its ticket: `/lti/open#ticket=…`. */
export const LTI_TICKET_FRAGMENT = 'ticket';

export const LTI_FRAME_MESSAGES = {
  frameKey: 'The key of this launch page is wrong or has expired. Open the activity again.',
  ticket: 'This link to continue the launch is used, expired or wrong. Open the activity again.',
} as const;
