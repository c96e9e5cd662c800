import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4 } from './common';

/**
 * LTI Dynamic Registration 1.0 (issue #10 point 1). A global administrator makes a one-time
 * registration URL for an organisation and hands it to the platform's administrator, who pastes
 * it into the platform; the platform opens it and the tool registers itself there.
 */

/** How long a registration URL stays usable. */
export const LTI_REGISTRATION_TOKEN_TTL_HOURS = 24;

export const LtiRegistrationOrganisationParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAX_INT4 }),
});
export type LtiRegistrationOrganisationParams = Static<typeof LtiRegistrationOrganisationParams>;

/**
 * POST /api/v1/organisation/{id}/lti/registration-token: the URL to paste into the platform
 * (`…/api/lti/register?portal_token=…`; the platform adds `openid_configuration` and
 * `registration_token`). Single use; shown once — the portal keeps only its hash.
 */
export const LtiRegistrationToken = Type.Object({
  url: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type LtiRegistrationToken = Static<typeof LtiRegistrationToken>;

/**
 * GET /api/v1/lti/tool: what a platform administrator enters when registering the tool by hand.
 * The launch URL is also the redirect URL and the deep-linking URL: one endpoint takes both
 * message types.
 */
export const LtiToolConfiguration = Type.Object({
  /** The URL to paste for dynamic registration, without a portal token. */
  registrationUrl: Type.String(),
  loginUrl: Type.String(),
  launchUrl: Type.String(),
  redirectUrls: Type.Array(Type.String()),
  deepLinkingUrl: Type.String(),
  jwksUrl: Type.String(),
  domain: Type.String(),
  scopes: Type.Array(Type.String()),
});
export type LtiToolConfiguration = Static<typeof LtiToolConfiguration>;

/** Names and Role Provisioning Services: reading a course's memberships (the roster sync). */
export const LTI_NRPS_SCOPE =
  'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';

/**
 * The scopes the tool asks for: AGS (its own line items, and posting scores to them) and NRPS
 * (the roster sync); a platform registered without NRPS simply offers no roster.
 */
export const LTI_TOOL_SCOPES = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  LTI_NRPS_SCOPE,
] as const;

/** Why a registration page refused (HTML page, 4xx). Codes for support; text in the page's language. */
export const LTI_REGISTRATION_ERRORS = [
  'INVALID_REQUEST',
  'INVALID_PORTAL_TOKEN',
  'INSECURE_URL',
  'CONFIGURATION_UNAVAILABLE',
  'INVALID_CONFIGURATION',
  'ISSUER_MISMATCH',
  'REGISTRATION_REFUSED',
  'INVALID_REGISTRATION',
] as const;
export type LtiRegistrationError = (typeof LTI_REGISTRATION_ERRORS)[number];

// ---- Framing origins and token audience of a registration (issue #22 leftovers) ----

/** Most framing origins one registration may name. */
export const LTI_FRAME_ORIGINS_MAX = 20;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const LTI_FRAME_ORIGIN_MESSAGES = {
  notOrigin: 'Must be an origin: https://, a host and an optional port, without a path.',
  insecure: 'Must use https:// (http:// only on localhost).',
  tooMany: `At most ${LTI_FRAME_ORIGINS_MAX} origins.`,
} as const;

/**
 * The origin `value` stands for (scheme://host[:port], as `URL.origin` writes it), or why it is
 * none: an origin that may frame the LTI pages must be https, or http on a loopback host
 * (development). A trailing "/" is no path; anything else after the host is.
 */
export function parseFrameOrigin(
  value: string,
): { origin: string } | { problem: keyof typeof LTI_FRAME_ORIGIN_MESSAGES } {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { problem: 'notOrigin' };
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && !value.trim().endsWith('?');
  if (url.username !== '' || url.password !== '' || !bare || url.host === '') {
    return { problem: 'notOrigin' };
  }
  if (url.protocol === 'https:') return { origin: url.origin };
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? { origin: url.origin } : { problem: 'insecure' };
  }
  return { problem: 'notOrigin' };
}
