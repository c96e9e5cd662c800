import type { FastifyInstance } from 'fastify';
import type { LmsContext } from '../context';
import { MEMBERSHIP_ROLE, type Member } from '../roster';
import { authorised, serviceDown } from '../service-auth';
import { COURSE } from '../store';

export const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
export const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';
export const MEMBERSHIP_CONTAINER_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
/** Page size when the tool names none, and the most we hand out at once (Canvas caps `limit` too). */
export const PAGE_LIMIT = 50;

/** The context's memberships URL, as the launch's NRPS claim carries it. */
export const membershipsUrl = (ctx: LmsContext, contextId: string) => `${ctx.issuer}/nrps/contexts/${encodeURIComponent(contextId)}/memberships`;

/** NRPS 2.0 §2.1: a role filter is a full role URI or, for context roles, its short name. */
function roleMatcher(role: string): (member: Member) => boolean {
  const full = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(role) ? role : `http://purl.imsglobal.org/vocab/lis/v2/membership#${role}`;
  // A sub-role (…/Instructor#TeachingAssistant) is also its principal role (LTI Core §A.2.2).
  return (member) => member.roles.some((r) => r === full || (full === MEMBERSHIP_ROLE.instructor && r.startsWith('http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#')));
}

type Query = { limit?: string; page?: string; role?: string };

/** `{field: [message]}` for a bad query, or the page asked for. */
function readQuery(query: Query): { limit: number; page: number; role: string | null } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const whole = (value: string | undefined, field: string, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^[1-9]\d{0,5}$/.test(value)) {
      errors[field] = ['must be a whole number of at least 1'];
      return fallback;
    }
    return Number(value);
  };
  // A larger limit is not an error: the platform may send fewer (NRPS 2.0 §2.4.1), as Canvas does.
  const limit = Math.min(whole(query.limit, 'limit', PAGE_LIMIT), PAGE_LIMIT);
  const page = whole(query.page, 'page', 1);
  const role = query.role?.trim() || null;
  if (role !== null && role.length > 500) errors.role = ['must be a role URI or name of at most 500 characters'];
  return Object.keys(errors).length ? { errors } : { limit, page, role };
}

/** Names and Role Provisioning Services 2.0, platform side: the Demo course's memberships, paged as Canvas pages them. */
export function nrpsRoutes(app: FastifyInstance, ctx: LmsContext) {
  app.get<{ Params: { contextId: string }; Querystring: Query }>('/nrps/contexts/:contextId/memberships', async (request, reply) => {
    if (ctx.outage.down) return serviceDown(reply);
    if (ctx.nrps.down) return serviceDown(reply, 'The memberships service is unavailable (test fault).');
    if (ctx.nrps.refuseTokens) {
      // Tokens handed out before the permission was withdrawn stop working too.
      return reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({ error: 'invalid_token' });
    }
    if (!authorised(ctx, request, reply, [NRPS_SCOPE])) return reply;
    if (request.params.contextId !== COURSE.id) return reply.code(404).send({ error: 'not_found', error_description: 'no such context' });
    const query = readQuery(request.query);
    if ('errors' in query) return reply.code(400).send(query.errors);

    const members = query.role === null ? ctx.roster.members() : ctx.roster.members().filter(roleMatcher(query.role));
    const lastPage = Math.max(1, Math.ceil(members.length / query.limit));
    const base = membershipsUrl(ctx, COURSE.id);
    const pageUrl = (page: number) => {
      const url = new URL(base);
      if (query.role !== null) url.searchParams.set('role', query.role);
      url.searchParams.set('page', String(page));
      url.searchParams.set('limit', String(query.limit));
      return url.toString();
    };
    // Canvas's header: current, next (while there is one), first and last, comma-joined.
    const links = [`<${pageUrl(query.page)}>; rel="current"`];
    if (query.page < lastPage) links.push(`<${pageUrl(query.page + 1)}>; rel="next"`);
    if (query.page > 1) links.push(`<${pageUrl(Math.min(query.page - 1, lastPage))}>; rel="prev"`);
    links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(lastPage)}>; rel="last"`);

    const start = (query.page - 1) * query.limit;
    return reply
      .type(MEMBERSHIP_CONTAINER_TYPE)
      .header('link', links.join(','))
      .header('cache-control', 'no-store')
      .send({
        id: pageUrl(query.page),
        context: { id: COURSE.id, label: COURSE.label, title: COURSE.title },
        members: members.slice(start, start + query.limit),
      });
  });
}
