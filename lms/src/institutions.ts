import type { LmsContext } from './context';
import type { LmsUser } from './store';

/** A client (and its deployment) the portal is registered under here. */
export interface LtiClient {
  clientId: string;
  deploymentId: string;
}

/**
 * One issuer with several institutions, as a hosted platform has them: Demo Hospital's courses
 * and Demo Brightspace College's Brightspace. The portal registers one client per institution and
 * every launch of a client belongs to one organisation there (api/src/demo/demo-lti.ts), so each
 * user launches through their own institution's client. Everybody but the college's users is
 * Demo Hospital's (the other demo accounts have always launched through it).
 */
export const BRIGHTSPACE_INSTITUTION = 'Demo Brightspace College';
export const BRIGHTSPACE_LTI_CLIENT: LtiClient = {
  clientId: 'portal-tool-brightspace',
  deploymentId: 'brightspace-deployment',
};

/**
 * The audience Brightspace wants in a tool's client assertion (its "OAuth2 Audience"), instead of
 * the token URL: the Brightspace client's assertions must name it, as at Brightspace.
 */
export const BRIGHTSPACE_TOKEN_AUDIENCE = 'https://api.brightspace.com/auth/token';

/** The `aud` a client's assertions must carry: Brightspace's for its client, else the token URL. */
export function tokenAudienceOf(ctx: LmsContext, clientId: unknown): string {
  return clientId === ctx.brightspaceLtiClient.clientId ? BRIGHTSPACE_TOKEN_AUDIENCE : ctx.tokenUrl;
}

export function ltiClients(ctx: LmsContext): LtiClient[] {
  return [{ clientId: ctx.clientId, deploymentId: ctx.deploymentId }, ctx.brightspaceLtiClient];
}

export function clientOf(ctx: LmsContext, user: LmsUser): LtiClient {
  const [main, brightspace] = ltiClients(ctx);
  return user.institution === BRIGHTSPACE_INSTITUTION ? brightspace! : main!;
}

export function clientById(ctx: LmsContext, clientId: unknown): LtiClient | null {
  return ltiClients(ctx).find((client) => client.clientId === clientId) ?? null;
}
