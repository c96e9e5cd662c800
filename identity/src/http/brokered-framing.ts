import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLtiFrameAncestors } from '@portal/service-kit';

import type { BrokeredLogins } from '../broker/brokered-login';
import type { IdentityProviderRepresentation } from '../broker/identity-providers';
import { INTERACTION_PATH, ROUTES } from '../oidc/provider';

/** The learning platforms' origins that may frame a launch's brokered sign-in. */
export interface PlatformFrameOrigins {
  /** frame-ancestors sources (`'none'` while there are none). */
  directive(): string[];
}

/** The portal API's broker path; its registrations answer beside it (GET /api/lti/frame-origins). */
const BROKER_PATH = '/api/lti/broker';

/**
 * The registered platforms' origins from the portal API the launch broker belongs to, kept fresh
 * (the host's list for its /lti/ pages, the same module). None without such a broker.
 */
export function platformFrameOriginsOf(
  providers: IdentityProviderRepresentation[],
  onError: (error: unknown) => void,
): PlatformFrameOrigins | null {
  const broker = providers.find((idp) => idp.enabled && idp.config.issuer.endsWith(BROKER_PATH));
  if (!broker) return null;
  const origins = createLtiFrameAncestors({ apiUrl: broker.config.issuer.slice(0, -BROKER_PATH.length), onError });
  void origins.keepFresh();
  return origins;
}

/**
 * Whether this answer is a page of a launch's brokered sign-in: the brokered provider's answer
 * (`/broker/{alias}/endpoint`) and the interaction page of an interaction that went to a brokered
 * provider (where it finishes, or says why not). Every other page keeps its own frame-ancestors.
 */
export function isBrokeredSignInPage(mountPath: string, brokeredLogins: Pick<BrokeredLogins, 'tried'>, url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith(`${mountPath}/`)) return false;
  const rest = path.slice(mountPath.length);
  if (/^\/broker\/[A-Za-z0-9_-]{1,64}\/endpoint$/.test(rest)) return true;
  const interaction = new RegExp(`^${INTERACTION_PATH}/([A-Za-z0-9_-]{1,64})$`).exec(rest);
  return interaction !== null && brokeredLogins.tried(interaction[1]!);
}

/**
 * Whether this answer is the session check (`check_session_iframe`), which the portal's launch
 * page loads in a hidden iframe inside the platform's frame: frame-ancestors is checked against
 * every ancestor, the platform's page on top too. It tells "changed" or not to the portal's
 * origins only (postMessage), so a platform framing it learns nothing.
 */
export function isSessionCheckPage(mountPath: string, url: string): boolean {
  return url.split('?')[0] === `${mountPath}${ROUTES.check_session_iframe}`;
}

/**
 * Whether this authorization request (oidc-provider's, a redirect) belongs to a launch's brokered
 * sign-in: `kc_idp_hint` naming an enabled brokered provider, or the resume of an interaction
 * that went to one. Chromium checks frame-ancestors on the redirects of a frame's navigation too.
 */
export function isBrokeredAuthorization(
  mountPath: string,
  brokeredLogins: Pick<BrokeredLogins, 'tried' | 'provider'>,
  url: string,
): boolean {
  const parsed = new URL(url, 'http://identity.invalid');
  const authorization = `${mountPath}/protocol/openid-connect/auth`;
  if (parsed.pathname === authorization) {
    const hint = parsed.searchParams.get('kc_idp_hint');
    return hint !== null && brokeredLogins.provider(hint) !== undefined;
  }
  const resume = /^\/([A-Za-z0-9_-]{1,64})$/.exec(parsed.pathname.slice(authorization.length));
  return parsed.pathname.startsWith(`${authorization}/`) && resume !== null && brokeredLogins.tried(resume[1]!);
}

/** The policy with `origins` added to its frame-ancestors. */
export function withFrameAncestors(policy: string, origins: string[]): string {
  return policy.replace(/(^|;)\s*frame-ancestors\s+([^;]*)/i, (_all, start: string, sources: string) => {
    const kept = sources.split(/\s+/).filter((source) => source && source !== "'none'");
    const all = [...new Set([...kept, ...origins])];
    return `${start}frame-ancestors ${all.length > 0 ? all.join(' ') : "'none'"}`;
  });
}

/**
 * An embedded launch signs in inside the learning platform's frame (issue #22 point 2): the
 * brokered sign-in's pages and the session check may be framed by the registered platforms'
 * origins, as the host's /lti/ pages are. An onSend hook after the security headers, so it sees the page's own policy.
 */
export function brokeredSignInFraming(
  mountPath: string,
  brokeredLogins: BrokeredLogins,
  platforms: PlatformFrameOrigins | null,
) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!platforms) return payload;
    const framed = isBrokeredSignInPage(mountPath, brokeredLogins, request.url) || isSessionCheckPage(mountPath, request.url);
    if (!framed) return payload;
    const origins = platforms.directive().filter((source) => source !== "'none'");
    const policy = reply.getHeader('content-security-policy');
    if (origins.length === 0 || typeof policy !== 'string') return payload;
    reply.header('content-security-policy', withFrameAncestors(policy, origins));
    // X-Frame-Options cannot name origins; browsers with frame-ancestors ignore it anyway.
    reply.removeHeader('x-frame-options');
    return payload;
  };
}
