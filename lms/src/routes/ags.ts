import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import type { LmsContext } from '../context';
import { ltiClients, tokenAudienceOf } from '../institutions';
import { authorised as authorisedFor, serviceDown } from '../service-auth';
import type { LineItem, Score } from '../store';
import { AGS_SCOPE } from './lti';
import { NRPS_SCOPE } from './nrps';

type Form = Record<string, string | undefined>;

export const SCORE_TYPE = 'application/vnd.ims.lis.v1.score+json';
const LINEITEM_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
const CONTAINER_TYPE = 'application/vnd.ims.lis.v2.lineitemcontainer+json';
const RESULTS_TYPE = 'application/vnd.ims.lis.v2.resultcontainer+json';
const ACTIVITY = ['Initialized', 'Started', 'InProgress', 'Submitted', 'Completed'];
const GRADING = ['FullyGraded', 'Pending', 'PendingManual', 'Failed', 'NotReady'];
/** AGS asks for ISO 8601 with sub-second precision; we accept whole seconds too, never a date alone. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

const oauthError = (reply: FastifyReply, status: number, error: string, description: string) =>
  reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });

/** The AGS 2.0 platform side: client-credentials tokens (RFC 7523 assertions, for AGS and NRPS), line items, scores. */
export function agsRoutes(app: FastifyInstance, ctx: LmsContext) {
  const { store } = ctx;
  const down = (reply: FastifyReply) => serviceDown(reply);

  app.post<{ Body: Form }>('/oauth2/token', async (request, reply) => {
    if (ctx.outage.down) return down(reply);
    const form = request.body ?? {};
    if (form.grant_type !== 'client_credentials') return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials');
    if (form.client_assertion_type !== JWT_BEARER || !form.client_assertion) return oauthError(reply, 400, 'invalid_request', `client_assertion_type must be ${JWT_BEARER}, with a client_assertion`);
    let jti: string;
    let exp: number;
    try {
      if (decodeProtectedHeader(form.client_assertion).alg !== 'RS256') throw new Error('RS256 only');
      // Which audience depends on the client (Brightspace's wants its own); the signature decides.
      const claimedIssuer = decodeJwt(form.client_assertion).iss;
      const { payload } = await jwtVerify(form.client_assertion, ctx.toolKeys, {
        algorithms: ['RS256'],
        // Any of the institutions' clients (institutions.ts); RFC 7523: the client is iss and sub.
        issuer: ltiClients(ctx).map((client) => client.clientId),
        audience: tokenAudienceOf(ctx, claimedIssuer),
        clockTolerance: 60,
        requiredClaims: ['exp', 'iat', 'jti', 'sub'],
      });
      if (payload.sub !== payload.iss) throw new Error('unexpected "sub" claim value');
      jti = String(payload.jti);
      exp = payload.exp!;
    } catch (error) {
      request.log.warn({ err: error }, 'client assertion refused');
      return oauthError(reply, 401, 'invalid_client', `client assertion refused: ${(error as Error).message}`);
    }
    // RFC 7523 §3 rule 7: a jti is used once. Kept an hour; an assertion living longer is refused.
    if (exp - Date.now() / 1000 > 3600) return oauthError(reply, 401, 'invalid_client', 'client assertion lives too long');
    if (store.usedJtis.has(jti)) return oauthError(reply, 401, 'invalid_client', 'client assertion jti was used before');
    store.usedJtis.put(true, jti);
    const known: string[] = [...Object.values(AGS_SCOPE), NRPS_SCOPE];
    const asked = (form.scope ?? '').split(' ');
    // The test switch plays a platform whose administrator withdrew the tool's roster permission.
    if (ctx.nrps.refuseTokens && asked.includes(NRPS_SCOPE)) return oauthError(reply, 400, 'invalid_scope', `${NRPS_SCOPE} is not granted to this tool`);
    const scopes = asked.filter((s) => known.includes(s));
    if (scopes.length === 0) return oauthError(reply, 400, 'invalid_scope', `scope must name AGS or NRPS scopes: ${known.join(' ')}`);
    const accessToken = store.accessTokens.put({ scopes });
    return reply.header('cache-control', 'no-store').send({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') });
  });

  const authorised = (request: FastifyRequest, reply: FastifyReply, anyOf: string[]) => authorisedFor(ctx, request, reply, anyOf);

  const lineItemUrl = (id: string) => `${ctx.issuer}/ags/lineitems/${id}`;
  const lineItemJson = (item: LineItem) => ({
    id: lineItemUrl(item.id),
    label: item.label,
    scoreMaximum: item.scoreMaximum,
    ...(item.resourceLinkId ? { resourceLinkId: item.resourceLinkId } : {}),
    ...(item.resourceId ? { resourceId: item.resourceId } : {}),
    ...(item.tag ? { tag: item.tag } : {}),
  });
  const readScopes = [AGS_SCOPE.lineitem, AGS_SCOPE.lineitemReadonly];

  app.get<{ Querystring: { resource_link_id?: string; resource_id?: string; tag?: string } }>('/ags/lineitems', async (request, reply) => {
    if (ctx.outage.down) return down(reply);
    if (!authorised(request, reply, readScopes)) return reply;
    const { resource_link_id: link, resource_id: resource, tag } = request.query;
    const items = store
      .lineItems()
      .filter((i) => (link === undefined || i.resourceLinkId === link) && (resource === undefined || i.resourceId === resource) && (tag === undefined || i.tag === tag));
    return reply.type(CONTAINER_TYPE).send(items.map(lineItemJson));
  });

  app.get<{ Params: { id: string } }>('/ags/lineitems/:id', async (request, reply) => {
    if (ctx.outage.down) return down(reply);
    if (!authorised(request, reply, readScopes)) return reply;
    const item = store.lineItem(request.params.id);
    if (!item) return reply.code(404).send({ error: 'not_found' });
    return reply.type(LINEITEM_TYPE).send(lineItemJson(item));
  });

  app.get<{ Params: { id: string } }>('/ags/lineitems/:id/results', async (request, reply) => {
    if (ctx.outage.down) return down(reply);
    if (!authorised(request, reply, [AGS_SCOPE.resultReadonly])) return reply;
    const item = store.lineItem(request.params.id);
    if (!item) return reply.code(404).send({ error: 'not_found' });
    const results = store.scoresOf(item.id).map((s) => ({
      id: `${lineItemUrl(item.id)}/results/${s.userId}`,
      scoreOf: lineItemUrl(item.id),
      userId: s.userId,
      ...(s.scoreGiven !== undefined ? { resultScore: s.scoreGiven, resultMaximum: s.scoreMaximum } : {}),
      ...(s.comment !== undefined ? { comment: s.comment } : {}),
    }));
    return reply.type(RESULTS_TYPE).send(results);
  });

  app.post<{ Params: { id: string }; Body: unknown }>('/ags/lineitems/:id/scores', async (request, reply) => {
    if (ctx.outage.down) return down(reply);
    if (!authorised(request, reply, [AGS_SCOPE.score])) return reply;
    const item = store.lineItem(request.params.id);
    if (!item) return reply.code(404).send({ error: 'not_found' });
    if ((request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== SCORE_TYPE) {
      return reply.code(415).send({ 'content-type': [`must be ${SCORE_TYPE}`] });
    }
    const checked = checkScore(request.body, (id) => store.user(id) !== null);
    if ('errors' in checked) return reply.code(400).send(checked.errors);
    const kept = store.putScore(item.id, { ...checked.score, receivedAt: new Date().toISOString() });
    if (!kept) request.log.info({ lineItem: item.id, userId: checked.score.userId }, 'score older than the stored one ignored');
    return reply.code(204).send();
  });
}

/** AGS 2.0 §3.4 Score: every field checked; messages in the `{field: ["message"]}` shape. */
function checkScore(body: unknown, knownUser: (id: string) => boolean): { score: Omit<Score, 'receivedAt'> } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { errors: { body: ['must be a JSON object'] } };
  const b = body as Record<string, unknown>;
  if (typeof b.userId !== 'string' || b.userId === '') fail('userId', 'is required');
  else if (!knownUser(b.userId)) fail('userId', 'is not a user of this course');
  const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (b.scoreGiven !== undefined) {
    if (!isNumber(b.scoreGiven) || b.scoreGiven < 0) fail('scoreGiven', 'must be a number ≥ 0');
    if (!isNumber(b.scoreMaximum) || b.scoreMaximum <= 0) fail('scoreMaximum', 'must be a number > 0 when scoreGiven is given');
    else if (isNumber(b.scoreGiven) && b.scoreGiven > b.scoreMaximum) fail('scoreGiven', 'must not exceed scoreMaximum');
  } else if (b.scoreMaximum !== undefined && (!isNumber(b.scoreMaximum) || b.scoreMaximum <= 0)) fail('scoreMaximum', 'must be a number > 0');
  if (typeof b.activityProgress !== 'string' || !ACTIVITY.includes(b.activityProgress)) fail('activityProgress', `must be one of ${ACTIVITY.join(', ')}`);
  if (typeof b.gradingProgress !== 'string' || !GRADING.includes(b.gradingProgress)) fail('gradingProgress', `must be one of ${GRADING.join(', ')}`);
  if (typeof b.timestamp !== 'string' || !TIMESTAMP.test(b.timestamp) || Number.isNaN(Date.parse(b.timestamp))) fail('timestamp', 'must be an ISO 8601 date-time with a time zone');
  if (b.comment !== undefined && (typeof b.comment !== 'string' || b.comment.length > 4000)) fail('comment', 'must be text of at most 4000 characters');
  if (Object.keys(errors).length) return { errors };
  return {
    score: {
      userId: b.userId as string,
      ...(b.scoreGiven !== undefined ? { scoreGiven: b.scoreGiven as number, scoreMaximum: b.scoreMaximum as number } : {}),
      ...(b.comment !== undefined ? { comment: b.comment as string } : {}),
      activityProgress: b.activityProgress as string,
      gradingProgress: b.gradingProgress as string,
      timestamp: b.timestamp as string,
    },
  };
}
