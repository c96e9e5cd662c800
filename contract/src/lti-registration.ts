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

/** The AGS scopes the tool asks for: its own line items, and posting scores to them. */
export const LTI_TOOL_SCOPES = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
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
