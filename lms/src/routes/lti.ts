import type { FastifyInstance, FastifyReply } from 'fastify';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { signedInUser, type LmsContext } from '../context';
import { html, page } from '../html';
import { clientById, clientOf, ltiClients } from '../institutions';
import { COURSE, displayName, type LmsUser } from '../store';
import { membershipsUrl, NRPS_CLAIM } from './nrps';

export const LTI_CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
export const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
export const AGS_SCOPE = {
  lineitem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineitemReadonly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  resultReadonly: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
} as const;

type Params = Record<string, string | undefined>;

/** The auth request's parameters (Security Framework §5.1.1.2); the first rule broken names the refusal. */
function checkAuthRequest(ctx: LmsContext, q: Params, user: LmsUser | null): string | null {
  if (!clientById(ctx, q.client_id)) return 'unknown client_id';
  // Checked before anything is sent anywhere: an unregistered redirect_uri never gets a token.
  if (q.redirect_uri !== ctx.toolLaunchUrl) return 'redirect_uri is not registered for this client';
  if (!(q.scope ?? '').split(' ').includes('openid')) return 'scope must include openid';
  if (q.response_type !== 'id_token') return 'response_type must be id_token';
  if (q.response_mode !== 'form_post') return 'response_mode must be form_post';
  if (!q.nonce) return 'nonce is missing';
  if (!q.state) return 'state is missing';
  if (!user) return 'no user is signed in (login_required)';
  if (q.login_hint !== user.id) return 'login_hint is not the signed-in user';
  if (q.client_id !== clientOf(ctx, user).clientId) return "client_id is not the signed-in user's institution's";
  return null;
}

const autoPost = (action: string, fields: Record<string, string>) =>
  page(
    'Launching',
    html`<h1>Launching …</h1>
<form method="post" action="${action}" data-autosubmit>
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<noscript><p>Press Continue to go on.</p></noscript>
<button type="submit">Continue</button>
</form>`,
    { script: '/assets/autosubmit.js' },
  );

/** The platform side of LTI 1.3 Core and Deep Linking 2.0: our JWKS, the auth endpoint, the deep linking return. */
export function ltiRoutes(app: FastifyInstance, ctx: LmsContext, sendPage: (reply: FastifyReply, body: string, status?: number) => unknown) {
  const { store } = ctx;
  const refuse = (reply: FastifyReply, title: string, reason: string, status = 400) =>
    sendPage(reply, page(title, html`<h1>${title}</h1><p class="problem" role="alert">${reason}</p><p><a href="/course">Back to the course</a></p>`), status);

  app.get('/.well-known/jwks.json', async (_request, reply) => reply.header('cache-control', 'public, max-age=300').send(ctx.keys.jwks));

  const usedDeepLinkNonces = new Set<string>();

  const auth = async (q: Params, request: Parameters<typeof signedInUser>[1], reply: FastifyReply) => {
    // In an embedded launch this page runs in the tool's frame on our course page.
    ctx.security.framedBySelf(reply);
    const user = signedInUser(ctx, request);
    const problem = checkAuthRequest(ctx, q, user);
    if (problem) {
      request.log.warn({ problem }, 'LTI auth request refused');
      return refuse(reply, 'Launch refused', problem);
    }
    const intent = store.intents.take(q.lti_message_hint);
    if (!intent || !user || intent.userId !== user.id) return refuse(reply, 'Launch refused', 'lti_message_hint is unknown, used or not yours');
    const client = clientOf(ctx, user);

    const common: JWTPayload = {
      sub: user.id,
      nonce: q.nonce,
      name: displayName(user),
      given_name: user.firstName,
      family_name: user.lastName,
      email: user.email,
      [`${LTI_CLAIM}version`]: '1.3.0',
      [`${LTI_CLAIM}deployment_id`]: client.deploymentId,
      [`${LTI_CLAIM}target_link_uri`]: ctx.toolLaunchUrl,
      [`${LTI_CLAIM}roles`]: user.roles,
      [`${LTI_CLAIM}context`]: { id: COURSE.id, label: COURSE.label, title: COURSE.title, type: ['http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering'] },
      [`${LTI_CLAIM}tool_platform`]: { guid: ctx.issuer, name: 'Learning platform stand-in', product_family_code: 'portal-lms-stand-in' },
      [`${LTI_CLAIM}launch_presentation`]: { document_target: intent.kind === 'link' ? intent.documentTarget : 'window', return_url: `${ctx.issuer}/course` },
      // Both institutions' clients may read the course's roster, as every launch into it says.
      [NRPS_CLAIM]: { context_memberships_url: membershipsUrl(ctx, COURSE.id), service_versions: ['2.0'] },
      // D2L's own claim: user_id is the Valence user id (whoami's Identifier), a number. Real D2L's
      // `sub` is another, opaque id; here both are the user's id.
      'http://www.brightspace.com': { user_id: Number(user.id), username: user.email },
    };
    let claims: JWTPayload;
    if (intent.kind === 'link') {
      const link = store.link(intent.linkId);
      if (!link) return refuse(reply, 'Launch refused', 'the link is gone', 404);
      const ags: Record<string, unknown> = {
        scope: [AGS_SCOPE.lineitem, AGS_SCOPE.resultReadonly, AGS_SCOPE.score],
        lineitems: `${ctx.issuer}/ags/lineitems`,
      };
      if (link.lineItemId) ags.lineitem = `${ctx.issuer}/ags/lineitems/${link.lineItemId}`;
      claims = {
        ...common,
        [`${LTI_CLAIM}message_type`]: 'LtiResourceLinkRequest',
        [`${LTI_CLAIM}resource_link`]: { id: link.id, title: link.title },
        [`${LTI_CLAIM}custom`]: link.custom,
        [AGS_CLAIM]: ags,
      };
    } else {
      store.deepLinkRequests.put({ userId: user.id, nonce: q.nonce! }, intent.data);
      claims = {
        ...common,
        [`${LTI_CLAIM}message_type`]: 'LtiDeepLinkingRequest',
        [`${DL_CLAIM}deep_linking_settings`]: {
          deep_link_return_url: `${ctx.issuer}/lti/deep-link-return`,
          accept_types: ['ltiResourceLink'],
          accept_presentation_document_targets: ['window', 'iframe'],
          accept_multiple: false,
          auto_create: true,
          title: 'Add a simulation',
          data: intent.data,
        },
      };
    }
    const idToken = await ctx.keys.sign(claims, { audience: client.clientId, expiresInSeconds: 300 });
    return sendPage(reply, autoPost(q.redirect_uri!, { id_token: idToken, state: q.state! }));
  };
  app.get<{ Querystring: Params }>('/lti/auth', (request, reply) => auth(request.query, request, reply));
  app.post<{ Body: Params }>('/lti/auth', (request, reply) => auth(request.body ?? {}, request, reply));

  /** Deep Linking 2.0 §4.2: the tool's LtiDeepLinkingResponse, signed with its key, form-posted as `JWT`. */
  app.post<{ Body: Params }>('/lti/deep-link-return', async (request, reply) => {
    const jwt = request.body?.JWT;
    if (!jwt) return refuse(reply, 'Deep linking refused', 'JWT is missing');
    let claims: JWTPayload;
    try {
      if (decodeProtectedHeader(jwt).alg !== 'RS256') throw new joseErrors.JOSEAlgNotAllowed('RS256 only');
      ({ payload: claims } = await jwtVerify(jwt, ctx.toolKeys, {
        algorithms: ['RS256'],
        issuer: ltiClients(ctx).map((c) => c.clientId),
        audience: ctx.issuer,
        clockTolerance: 60,
        requiredClaims: ['exp', 'iat', 'nonce'],
      }));
    } catch (error) {
      request.log.warn({ err: error }, 'deep linking response refused');
      return refuse(reply, 'Deep linking refused', `The tool's response did not verify (${(error as Error).message}).`);
    }
    const settings = claims;
    if (settings[`${LTI_CLAIM}message_type`] !== 'LtiDeepLinkingResponse') return refuse(reply, 'Deep linking refused', 'message_type must be LtiDeepLinkingResponse');
    if (settings[`${LTI_CLAIM}version`] !== '1.3.0') return refuse(reply, 'Deep linking refused', 'version must be 1.3.0');
    const client = clientById(ctx, claims.iss);
    if (settings[`${LTI_CLAIM}deployment_id`] !== client?.deploymentId) return refuse(reply, 'Deep linking refused', 'deployment_id is not ours');
    const nonce = String(claims.nonce);
    if (usedDeepLinkNonces.has(nonce)) return refuse(reply, 'Deep linking refused', 'nonce was used before');
    const data = settings[`${DL_CLAIM}data`];
    const request_ = typeof data === 'string' ? store.deepLinkRequests.take(data) : null;
    if (!request_) return refuse(reply, 'Deep linking refused', 'data does not echo a deep linking request of ours');
    const requester = store.user(request_.userId);
    if (!requester || clientOf(ctx, requester).clientId !== client!.clientId) {
      return refuse(reply, 'Deep linking refused', "the response's client is not the one the request went to");
    }
    usedDeepLinkNonces.add(nonce);
    const errorMessage = settings[`${DL_CLAIM}errormsg`];
    const items = settings[`${DL_CLAIM}content_items`];
    if (!Array.isArray(items) || items.length === 0) {
      const text = typeof errorMessage === 'string' ? errorMessage : 'Nothing was added.';
      return sendPage(reply, page('Nothing added', html`<h1>Nothing added</h1><p class="notice">${text}</p><p><a href="/course">Back to the course</a></p>`));
    }
    if (items.length > 1) return refuse(reply, 'Deep linking refused', 'one content item at most (accept_multiple is false)');
    const added: string[] = [];
    for (const raw of items) {
      const item = raw as Record<string, unknown>;
      if (item.type !== 'ltiResourceLink') return refuse(reply, 'Deep linking refused', `content item type ${String(item.type)} is not accepted`);
      const title = typeof item.title === 'string' && item.title.trim() ? item.title.trim().slice(0, 200) : 'Simulation';
      const custom: Record<string, string> = {};
      if (item.custom && typeof item.custom === 'object') {
        for (const [k, v] of Object.entries(item.custom)) if (typeof v === 'string' && k !== '__proto__') custom[k] = v;
      }
      const li = item.lineItem as Record<string, unknown> | undefined;
      let lineItem;
      if (li && typeof li === 'object') {
        if (typeof li.scoreMaximum !== 'number' || !(li.scoreMaximum > 0)) return refuse(reply, 'Deep linking refused', 'lineItem.scoreMaximum must be a positive number');
        lineItem = {
          label: typeof li.label === 'string' ? li.label : title,
          scoreMaximum: li.scoreMaximum,
          ...(typeof li.resourceId === 'string' ? { resourceId: li.resourceId } : {}),
          ...(typeof li.tag === 'string' ? { tag: li.tag } : {}),
        };
      }
      added.push(store.addLink({ title, custom, ...(lineItem ? { lineItem } : {}) }).id);
    }
    return reply.redirect(`/course?added=${encodeURIComponent(added[0]!)}`, 303);
  });
}
