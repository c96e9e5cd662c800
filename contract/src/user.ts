import { Type, type Static } from '@sinclair/typebox';
import { MAX_INT4 } from './common';

export const CurrentUser = Type.Object({
  id: Type.String(),
  // Null for a learner a learning platform launched without an e-mail address (issue #22).
  email: Type.Union([Type.String(), Type.Null()]),
  firstName: Type.String(),
  lastName: Type.String(),
  language: Type.String(),
  roleName: Type.String(),
  organisationId: Type.Union([Type.Integer(), Type.Null()]),
  organisationName: Type.Union([Type.String(), Type.Null()]),
  isBrightspaceAuthRequired: Type.Boolean(),
  brightspaceUserMismatch: Type.Boolean(),
  permissions: Type.Array(Type.String()),
});
export type CurrentUser = Static<typeof CurrentUser>;

export const CookiePreference = Type.Object(
  { allowEssentialCookies: Type.Boolean() },
  { additionalProperties: false },
);
export type CookiePreference = Static<typeof CookiePreference>;

/** Language is a lookup code (`language` field); skinTone is a lookup id (`skinTone` field). */
export const UserPreference = Type.Object(
  {
    language: Type.String({ minLength: 2, maxLength: 10 }),
    skinTone: Type.Union([
      Type.Integer({ minimum: -MAX_INT4 - 1, maximum: MAX_INT4 }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
export type UserPreference = Static<typeof UserPreference>;

export const UserIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
export type UserIdParams = Static<typeof UserIdParams>;

/**
 * Starts the Brightspace OAuth round trip (issue #10 point 6) for the signed-in user: where to
 * come back to, a same-origin path (anything else comes back to `/`).
 */
export const BrightspaceAuthStart = Type.Object(
  { redirectPath: Type.String({ maxLength: 2000 }) },
  { additionalProperties: false },
);
export type BrightspaceAuthStart = Static<typeof BrightspaceAuthStart>;

/** Where the browser goes next (full page): `/api/brightspace-auth?redirect_path=…&state=…`. */
export const BrightspaceAuthStartResponse = Type.Object({ url: Type.String() });
export type BrightspaceAuthStartResponse = Static<typeof BrightspaceAuthStartResponse>;

/**
 * Why the round trip ended on the host's `/brightspace-auth/error?error=…`: the user refused
 * at Brightspace, the state was unknown, used, expired or started in another browser, or
 * Brightspace's token endpoint or whoami failed.
 */
export const BRIGHTSPACE_AUTH_ERRORS = [
  'ACCESS_DENIED',
  'INVALID_STATE',
  'BRIGHTSPACE_FAILED',
] as const;
export type BrightspaceAuthError = (typeof BRIGHTSPACE_AUTH_ERRORS)[number];
