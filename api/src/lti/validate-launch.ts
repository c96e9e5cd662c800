import {
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { LTI_MESSAGE_TYPES, type LtiErrorCode, type LtiMessageType } from '@portal/contract';
import { OutboundError } from '../lib/outbound-http';
import type { RegisteredPlatform, ValidLaunch } from '../repositories/lti-types';

// The launch check's answer; the records themselves live with the repositories that store them.
export type { RegisteredPlatform, ValidLaunch };

/**
 * The launch check of the LTI 1.3 tool (1EdTech Security Framework 1.0 §5.1.3, LTI Core 1.3 §5):
 * every rule an id_token must pass before the portal trusts the platform's word about a user. It
 * touches nothing but what it is given (stores, key source, clock), so the certification suite's
 * known-bad launches are unit tests of this function.
 */

/** The LTI claims' namespace. */
export const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
export const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
export const DEEP_LINKING_CLAIM =
  'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings';

/** The states the login hands out: base64url of 32 random bytes (16–100 characters accepted). */
export const STATE_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;

/** Seconds of clock difference tolerated on exp and iat (the platform's clock may run ahead). */
export const DEFAULT_SKEW_SECONDS = 60;

export interface LaunchStores {
  /**
   * Marks the state used and answers the nonce and platform stored with it; null when the state
   * is unknown, used before, or older than its 10 minutes. Single use: a second call with the same
   * state answers null.
   */
  consumeState(state: string): Promise<{ nonce: string; platformId: number } | null>;
  platform(id: number): Promise<RegisteredPlatform | null>;
  /** The platform's public keys (its JWKS), looked up by the token header's `kid`. */
  keys(platform: RegisteredPlatform): JWTVerifyGetKey;
}

export interface LaunchInput {
  idToken: unknown;
  state: unknown;
  /** The state cookie the login set, when the browser sent it back. */
  stateCookie?: string | undefined;
}

export interface ValidateOptions {
  now?: Date;
  skewSeconds?: number;
}


/** `reason` says which rule refused (logged, asserted by tests); only `error` reaches the browser. */
export type LaunchResult =
  { ok: true; launch: ValidLaunch } | { ok: false; error: LtiErrorCode; reason: string };

const refuse = (error: LtiErrorCode, reason: string): LaunchResult => ({
  ok: false,
  error,
  reason,
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const optionalText = (v: unknown): string | null => (nonEmpty(v) ? v : null);

/** A JWS compact serialisation: three base64url parts (empty signature: `alg: none`, refused below). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** What jose's verification errors mean for the launch. */
function verifyFailure(error: unknown): LaunchResult {
  if (error instanceof joseErrors.JWTExpired) return refuse('INVALID_CLAIMS', 'expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return refuse('INVALID_CLAIMS', `claim_${error.claim}`);
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) return refuse('INVALID_TOKEN', 'unknown_kid');
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return refuse('INVALID_TOKEN', 'alg');
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return refuse('INVALID_TOKEN', 'signature');
  }
  if (error instanceof joseErrors.JWKSTimeout)
    return refuse('PLATFORM_UNAVAILABLE', 'jwks_timeout');
  // The guarded client refused the JWKS URL or its answer (internal address, redirect, size…).
  if (error instanceof OutboundError) return refuse('PLATFORM_UNAVAILABLE', `jwks_${error.code}`);
  if (error instanceof joseErrors.JOSEError) return refuse('INVALID_TOKEN', error.code);
  // fetch of the platform's JWKS failed (refused, DNS, non-JSON answer).
  return refuse('PLATFORM_UNAVAILABLE', 'jwks_unreachable');
}

/** Custom parameters are strings by LTI Core §5.4.6; anything else is dropped, not trusted. */
/** D2L's extension claim; its `user_id` is the user's Brightspace (Valence) id. */
export const BRIGHTSPACE_CLAIM = 'http://www.brightspace.com';

/** A positive integer, as D2L sends it (a number, or the same digits as a string); else null. */
function brightspaceUserIdOf(value: unknown): string | null {
  if (!isObject(value)) return null;
  const id = value.user_id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return String(id);
  if (typeof id === 'string' && /^[1-9][0-9]{0,19}$/.test(id)) return id;
  return null;
}

function customOf(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && k !== '__proto__') out[k] = v;
  }
  return out;
}

export async function validateLaunch(
  input: LaunchInput,
  stores: LaunchStores,
  options: ValidateOptions = {},
): Promise<LaunchResult> {
  const now = options.now ?? new Date();
  const skew = options.skewSeconds ?? DEFAULT_SKEW_SECONDS;

  // State first: whatever else is wrong, this login attempt is spent. Ours are base64url.
  if (typeof input.state !== 'string' || !STATE_PATTERN.test(input.state)) {
    return refuse('INVALID_STATE', 'state');
  }
  if (input.stateCookie !== undefined && input.stateCookie !== input.state) {
    return refuse('INVALID_STATE', 'state_cookie');
  }
  const login = await stores.consumeState(input.state);
  if (!login) return refuse('INVALID_STATE', 'state_unknown_or_used');

  if (typeof input.idToken !== 'string' || !JWT_SHAPE.test(input.idToken)) {
    return refuse('INVALID_TOKEN', 'not_a_jwt');
  }
  const token = input.idToken;
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    unverified = decodeJwt(token);
  } catch {
    return refuse('INVALID_TOKEN', 'not_a_jwt');
  }
  // RS256 only (Security Framework §5.1.3 step 6): never `none`, never an HMAC keyed by a public key.
  if (header.alg !== 'RS256') return refuse('INVALID_TOKEN', 'alg');
  if (!nonEmpty(header.kid)) return refuse('INVALID_TOKEN', 'missing_kid');

  const platform = await stores.platform(login.platformId);
  if (!platform) return refuse('INVALID_STATE', 'platform_gone');
  // Checked before the key lookup, so a token of another issuer never makes us fetch anything.
  if (unverified.iss !== platform.issuer) return refuse('INVALID_CLAIMS', 'claim_iss');

  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, stores.keys(platform), {
      algorithms: ['RS256'],
      issuer: platform.issuer,
      audience: platform.clientId,
      currentDate: now,
      clockTolerance: skew,
      requiredClaims: ['exp', 'iat', 'nonce'],
    }));
  } catch (error) {
    return verifyFailure(error);
  }

  // Signed or not, text the database cannot hold (NUL) is no launch we could record.
  if (JSON.stringify(claims).includes('\\u0000')) return refuse('INVALID_LTI_MESSAGE', 'nul');

  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.iat !== 'number' || claims.iat > nowSeconds + skew) {
    return refuse('INVALID_CLAIMS', 'claim_iat');
  }
  // Several audiences: the token must say it was issued for us (OIDC Core §3.1.3.7 rule 4–5).
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (audiences.length > 1 && claims.azp === undefined)
    return refuse('INVALID_CLAIMS', 'claim_azp');
  if (claims.azp !== undefined && claims.azp !== platform.clientId) {
    return refuse('INVALID_CLAIMS', 'claim_azp');
  }
  if (claims.nonce !== login.nonce) return refuse('INVALID_CLAIMS', 'claim_nonce');

  const deploymentId = claims[`${LTI_CLAIM}deployment_id`];
  if (!nonEmpty(deploymentId)) return refuse('INVALID_LTI_MESSAGE', 'deployment_id');
  if (!platform.deploymentIds.includes(deploymentId)) {
    return refuse('UNKNOWN_DEPLOYMENT', 'deployment_id_unregistered');
  }
  if (claims[`${LTI_CLAIM}version`] !== '1.3.0') return refuse('INVALID_LTI_MESSAGE', 'version');
  const messageType = claims[`${LTI_CLAIM}message_type`];
  if (!(LTI_MESSAGE_TYPES as readonly unknown[]).includes(messageType)) {
    return refuse('INVALID_LTI_MESSAGE', 'message_type');
  }
  const roles = claims[`${LTI_CLAIM}roles`];
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string')) {
    return refuse('INVALID_LTI_MESSAGE', 'roles');
  }
  if (!nonEmpty(claims.sub) || claims.sub.length > 255) return refuse('INVALID_LTI_MESSAGE', 'sub');
  const resourceLink = claims[`${LTI_CLAIM}resource_link`];
  if (
    messageType === 'LtiResourceLinkRequest' &&
    !(isObject(resourceLink) && nonEmpty(resourceLink.id))
  ) {
    return refuse('INVALID_LTI_MESSAGE', 'resource_link_id');
  }
  const deepLinking = claims[DEEP_LINKING_CLAIM];
  if (
    messageType === 'LtiDeepLinkingRequest' &&
    !(isObject(deepLinking) && nonEmpty(deepLinking.deep_link_return_url))
  ) {
    return refuse('INVALID_LTI_MESSAGE', 'deep_linking_settings');
  }

  const context = claims[`${LTI_CLAIM}context`];
  const ags = claims[AGS_CLAIM];
  return {
    ok: true,
    launch: {
      platform,
      deploymentId,
      messageType: messageType as LtiMessageType,
      sub: claims.sub,
      roles: roles as string[],
      context: isObject(context) ? context : null,
      resourceLink: isObject(resourceLink) ? resourceLink : null,
      agsEndpoint: isObject(ags) ? ags : null,
      nrpsEndpoint: isObject(claims[NRPS_CLAIM]) ? claims[NRPS_CLAIM] : null,
      deepLinkingSettings: isObject(deepLinking) ? deepLinking : null,
      custom: customOf(claims[`${LTI_CLAIM}custom`]),
      brightspaceUserId: brightspaceUserIdOf(claims[BRIGHTSPACE_CLAIM]),
      email: optionalText(claims.email),
      givenName: optionalText(claims.given_name),
      familyName: optionalText(claims.family_name),
      name: optionalText(claims.name),
    },
  };
}

/** LTI roles (vocabularies of LTI Core §A.2) that make a portal educator. */
const EDUCATOR_ROLES = new Set([
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/system/person#Administrator',
  // Short context roles, which LTI 1.3 still allows platforms to send.
  'Instructor',
  'Administrator',
]);

/** The portal role a platform user created just in time gets. */
export function portalRoleFor(roles: readonly string[]): 'educator' | 'learner' {
  return roles.some((r) => EDUCATOR_ROLES.has(r)) ? 'educator' : 'learner';
}
