import type { LtiMessageType } from '@portal/contract';

/**
 * The LTI records the repositories store and the LTI modules (launch check, dynamic registration)
 * produce. They live here, below both, so a repository never imports a domain module.
 */

/** A learning platform as the launch check needs it. */
export interface RegisteredPlatform {
  id: number;
  issuer: string;
  clientId: string;
  deploymentIds: readonly string[];
  organisationId: number;
  /**
   * The registration is marked "platform verifies e-mail addresses": a launch may link to an
   * existing portal account by its e-mail. Absent is false.
   */
  verifiesEmail?: boolean;
}

/** A launch whose id_token passed every rule of the launch check. */
export interface ValidLaunch {
  platform: RegisteredPlatform;
  deploymentId: string;
  messageType: LtiMessageType;
  sub: string;
  roles: string[];
  context: Record<string, unknown> | null;
  resourceLink: Record<string, unknown> | null;
  agsEndpoint: Record<string, unknown> | null;
  /** The NRPS claim (`context_memberships_url`, `service_versions`), when the platform sent one. */
  nrpsEndpoint?: Record<string, unknown> | null;
  deepLinkingSettings: Record<string, unknown> | null;
  custom: Record<string, string>;
  /** D2L's user id (`http://www.brightspace.com` claim's `user_id`): Valence whoami's Identifier. */
  brightspaceUserId: string | null;
  email: string | null;
  givenName: string | null;
  familyName: string | null;
  name: string | null;
}

/** What a platform's OpenID configuration names (LTI Dynamic Registration §3.4). */
export interface PlatformEndpoints {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  registrationEndpoint: string;
  /**
   * The configuration's `authorization_server` (LTI Dynamic Registration §3.4): the audience
   * the tool's client assertion names instead of the token URL. Null when the platform sent none.
   */
  authorizationServer: string | null;
}

/** What the platform answered to the tool's registration request. */
export interface RegisteredClient {
  clientId: string;
  deploymentId: string | null;
}
