import { LTI_NRPS_SCOPE } from '@portal/contract';
import { linkTargets } from '../lib/link-header';
import {
  PlatformCallError,
  platformHosts,
  type PlatformRow,
  type PlatformTokens,
} from './platform-token';

/**
 * Reading a course's memberships with Names and Role Provisioning Services 2.0 (1EdTech NRPS 2.0
 * §2.2, §2.4): every page of the container, following `Link: rel="next"`, with a token for the
 * contextmembership.readonly scope. Every URL — the claim's and each `next` — must lie on a host
 * of the platform's registration: neither the launch nor the platform's answer may point the
 * portal elsewhere.
 */
export const NRPS_SCOPE = LTI_NRPS_SCOPE;
export const MEMBERSHIP_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';

/** A course larger than this is not a course; a platform that pages for ever stops here. */
export const MAX_PAGES = 1000;

export type MemberStatus = 'Active' | 'Inactive' | 'Deleted';

/** A member as the sync uses it; the platform's other fields are not kept. */
export interface NrpsMember {
  userId: string;
  status: MemberStatus;
  roles: string[];
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  email: string | null;
}

const text = (value: unknown, max: number): string | null =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : null;

/** A member of the answer; null for one without a usable `user_id` (nothing could be linked). */
export function memberOf(raw: unknown): NrpsMember | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  const userId = text(m.user_id, 255);
  if (userId === null) return null;
  // NRPS 2.0 §2.3: status is optional and Active when absent.
  const status: MemberStatus =
    m.status === 'Inactive' || m.status === 'Deleted' ? m.status : 'Active';
  return {
    userId,
    status,
    roles: Array.isArray(m.roles) ? m.roles.filter((r): r is string => typeof r === 'string') : [],
    name: text(m.name, 500),
    givenName: text(m.given_name, 255),
    familyName: text(m.family_name, 255),
    email: text(m.email, 254),
  };
}

/** Every member of the course, in the platform's order, each user id once (the last word wins). */
export async function fetchMemberships(
  tokens: PlatformTokens,
  platform: PlatformRow,
  membershipsUrl: string,
): Promise<NrpsMember[]> {
  const allowedHosts = platformHosts(platform);
  const members = new Map<string, NrpsMember>();
  const seen = new Set<string>();
  let url: string | undefined = membershipsUrl;
  for (let page = 1; url !== undefined; page++) {
    if (page > MAX_PAGES || seen.has(url)) {
      throw new PlatformCallError('memberships', 'INVALID_ANSWER', null, true);
    }
    seen.add(url);
    const pageUrl: string = url;
    const res = await tokens.withToken(platform, [NRPS_SCOPE], 'memberships', (token) =>
      tokens.call(
        pageUrl,
        {
          headers: { authorization: `Bearer ${token}`, accept: MEMBERSHIP_MEDIA_TYPE },
          allowedHosts,
        },
        'memberships',
      ),
    );
    const body = res.json() as { members?: unknown } | undefined;
    if (!body || !Array.isArray(body.members)) {
      throw new PlatformCallError('memberships', 'INVALID_ANSWER', res.status, true);
    }
    for (const raw of body.members) {
      const member = memberOf(raw);
      if (member) {
        members.delete(member.userId);
        members.set(member.userId, member);
      }
    }
    url = linkTargets(res.headers.get('link'), pageUrl).get('next');
  }
  return [...members.values()];
}
