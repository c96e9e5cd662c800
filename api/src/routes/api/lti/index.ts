import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  FieldErrors,
  LTI_MESSAGES,
  LTI_SHOWN_REASONS,
  LtiFrameOrigins,
  LtiJwks,
  type LtiErrorCode,
} from '@portal/contract';
import { badRequest, detailError } from '../../../lib/http-errors';
import { createOutboundClient, outboundPolicyFor } from '../../../lib/outbound-http';
import {
  getStatePage,
  putStatePage,
  STORAGE_TARGET_PATTERN,
  type StoragePage,
} from '../../../lti/client-storage-pages';
import { dropFrameOptionsOfPages } from '../../../lti/framed-pages';
import { registeredFrameOrigins } from '../../../lti/frame-origins';
import { setLaunchBrowserCookie } from '../../../lti/launch-browser-cookie';
import { launchCookieOptions } from '../../../lti/launch-cookie-options';
import { launchPagePath } from '../../../lti/launch-page-location';
import { createPlatformKeys } from '../../../lti/platform-keys';
import { createToolKeys } from '../../../lti/tool-keys';
import { STATE_PATTERN, validateLaunch, type LaunchStores } from '../../../lti/validate-launch';
import { createLtiLaunchBrowserRepository } from '../../../repositories/lti-launch-browser-repository';
import { LOGIN_STATE_TTL_SECONDS } from '../../../repositories/lti-repository';
import { recordLtiLaunch } from '../../../services/lti/record-launch';
import { acceptFormBodies } from '../../../lib/form-body';
import { bindBrokerSignIn } from '../../../lti/broker/bind-sign-in';
import { pageLanguage } from './register';

const tags = ['lti'];

/** Form posts of the platform carry an id_token of a few kB; far more is no launch. */
const FORM_BODY_LIMIT = 64 * 1024;

const Param = (max: number) => Type.Optional(Type.String({ maxLength: max }));

/** OIDC third-party login initiation (LTI 1.3 Core §4.1, Security Framework §5.1.1). */
const LoginParams = Type.Object({
  iss: Type.String({ minLength: 1, maxLength: 255 }),
  login_hint: Type.String({ minLength: 1, maxLength: 2000 }),
  target_link_uri: Type.String({ minLength: 1, maxLength: 2000 }),
  lti_message_hint: Param(4000),
  client_id: Param(255),
  lti_deployment_id: Param(255),
  /** LTI Client Side postMessages: the platform's storage frame (`_parent` or a frame name). */
  lti_storage_target: Param(64),
});
type LoginParams = Static<typeof LoginParams>;

/** The platform's auto-posted form; other fields a platform adds are ignored. */
const LaunchForm = Type.Object({
  id_token: Param(FORM_BODY_LIMIT),
  state: Param(200),
});

/** The launch's second step (postMessage storage): the page posts what the platform kept. */
const LaunchStorageCheck = Type.Object({
  id_token: Type.String({ minLength: 1, maxLength: FORM_BODY_LIMIT }),
  state: Type.String({ pattern: STATE_PATTERN.source }),
  stored_state: Type.Union([Type.String({ maxLength: 200 }), Type.Null()]),
});
const LaunchStorageAnswer = Type.Object({ location: Type.String() });

/** An HTML page of the LTI flow, framed only by its platform; X-Frame-Options cannot say that. */
function sendPage(reply: FastifyReply, page: StoragePage) {
  return reply
    .header('content-security-policy', page.csp)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** Cookie naming the state this browser started; per state, so parallel logins do not clash. */
const stateCookieName = (state: string) => `lti_state_${state.slice(0, 16)}`;
const STATE_COOKIE_PATH = '/api/lti';

/** `https://host/path?x` → `https://host`; null when not an http(s) URL. */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * The tool side of LTI 1.3 (issue #10): login initiation, the launch, the tool's JWKS. All
 * public: the platform and the browser call them without a portal token. A refused launch sends
 * the browser to the host's `/lti/error?error=…`, never to a JSON answer it could not show.
 */
const ltiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { lti } = app.repos;
  const toolKeys = createToolKeys(app.db);
  await toolKeys.ensure();
  const { portalUrl } = app.config;
  const launchUrl = `${portalUrl}/api/lti/launch`;
  const launchBrowsers = createLtiLaunchBrowserRepository(app.db);

  const outbound = createOutboundClient({ policy: outboundPolicyFor(portalUrl) });
  app.addHook('onClose', () => outbound.close());
  const stores: LaunchStores = {
    consumeState: (state) => lti.consumeState(state),
    platform: (id) => lti.registered(id),
    keys: createPlatformKeys(outbound, (id) => lti.jwksUrlOf(id)),
  };

  // The pages run in the platform's frame; their own CSP says who may frame them.
  app.addHook('onSend', dropFrameOptionsOfPages);

  // Platforms post forms (application/x-www-form-urlencoded); only these routes read them.
  acceptFormBodies(app, FORM_BODY_LIMIT);

  async function login(params: LoginParams, request: FastifyRequest, reply: FastifyReply) {
    const platform = await lti.forLogin(params.iss, params.client_id);
    if (!platform) throw badRequest({ iss: [LTI_MESSAGES.unknownPlatform] });
    if (originOf(params.target_link_uri) !== originOf(portalUrl)) {
      throw badRequest({ target_link_uri: [LTI_MESSAGES.targetLinkUri] });
    }
    if (
      params.lti_deployment_id !== undefined &&
      !platform.deploymentIds.includes(params.lti_deployment_id)
    ) {
      throw badRequest({ lti_deployment_id: ['This deployment is not registered.'] });
    }
    const storageTarget = params.lti_storage_target;
    if (storageTarget !== undefined && !STORAGE_TARGET_PATTERN.test(storageTarget)) {
      throw badRequest({ lti_storage_target: [LTI_MESSAGES.storageTarget] });
    }
    const { state, nonce } = await lti.createLoginState(platform.id, storageTarget ?? null);
    const target = new URL(platform.authLoginUrl);
    const auth: Record<string, string> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.clientId,
      redirect_uri: launchUrl,
      login_hint: params.login_hint,
      state,
      nonce,
      ...(params.lti_message_hint !== undefined
        ? { lti_message_hint: params.lti_message_hint }
        : {}),
    };
    for (const [k, v] of Object.entries(auth)) target.searchParams.set(k, v);
    // The 1EdTech guidance binds the state to the browser with a cookie. It comes back on the
    // platform's cross-site form post only as SameSite=None, which browsers take only Secure;
    // over plain http, or where third-party cookies are blocked (the tool in an iframe), it is
    // missing: then the state kept in the platform's storage frame stands in for it, where the
    // platform offered one, else the single-use state alone (see validateLaunch).
    reply.setCookie(
      stateCookieName(state),
      state,
      launchCookieOptions(portalUrl, {
        path: STATE_COOKIE_PATH,
        maxAgeSeconds: LOGIN_STATE_TTL_SECONDS,
      }),
    );
    if (storageTarget === undefined) return reply.redirect(target.toString(), 302);
    const lang = pageLanguage(request.headers['accept-language']);
    const page = putStatePage(
      { lang, platform, portalUrl },
      { target: storageTarget, state, next: target.toString() },
    );
    return sendPage(reply, page);
  }

  const loginSchema = {
    tags,
    summary: 'LTI 1.3 OIDC login initiation: redirects to the platform with state and nonce',
    response: { 400: FieldErrors },
  };
  app.get(
    '/login',
    {
      // A HEAD must not store a login state.
      exposeHeadRoute: false,
      config: { public: true },
      schema: { ...loginSchema, querystring: LoginParams },
    },
    (request, reply) => login(request.query, request, reply),
  );
  app.post(
    '/login',
    {
      config: { public: true, xsrf: false },
      schema: { ...loginSchema, body: LoginParams },
    },
    (request, reply) => login(request.body, request, reply),
  );

  const errorLocation = (error: LtiErrorCode, reason?: string) => {
    const query = new URLSearchParams({ error });
    // Only reasons the error page explains travel; the others are for the log.
    if (reason !== undefined && (LTI_SHOWN_REASONS as readonly string[]).includes(reason)) {
      query.set('reason', reason);
    }
    return `${portalUrl}/lti/error?${query}`;
  };

  /**
   * Validates and records the launch; answers where the browser goes on: the launch page, the
   * deep linking picker, or the error page. A resource link launch binds this browser (cookie).
   */
  async function finishLaunch(
    request: FastifyRequest,
    reply: FastifyReply,
    input: { idToken: unknown; state: unknown; stateCookie: string | undefined },
  ): Promise<string> {
    const result = await validateLaunch(input, stores, {
      skewSeconds: app.config.ltiClockLeewaySeconds,
    });
    if (!result.ok) {
      app.metrics.ltiLaunches.inc({ outcome: 'refused', code: result.error });
      request.log.warn({ lti: result }, 'LTI launch refused');
      return errorLocation(result.error);
    }
    const launch = result.launch;
    const outcome = await recordLtiLaunch(app, launch);
    if (!outcome.ok) {
      app.metrics.ltiLaunches.inc({ outcome: 'refused', code: outcome.error });
      request.log.warn({ lti: outcome, iss: launch.platform.issuer }, 'LTI launch refused');
      return errorLocation(outcome.error, outcome.reason);
    }
    app.metrics.ltiLaunches.inc({ outcome: 'accepted', code: '' });
    // This browser may sign in by this launch (the broker's binding, issue #22 point 1).
    const idp = await bindBrokerSignIn(app, reply, outcome.launchId);
    if (launch.messageType === 'LtiDeepLinkingRequest') {
      // The instructor's picker (issue #10 point 5) reads the recorded deep-linking settings.
      const query = new URLSearchParams({ launchId: outcome.launchId });
      if (idp !== undefined) query.set('idp', idp);
      return `${portalUrl}/lti/deep-link?${query}`;
    }
    // This browser is bound to the launch (its cookie); the launch page gets a key of its own
    // to ask for an "Open in a new window" ticket when its frame cannot keep that cookie.
    const binding = await launchBrowsers.bind(outcome.launchId);
    setLaunchBrowserCookie(reply, portalUrl, binding.cookie);
    const page = launchPagePath(outcome.launchId, launch.custom, { frameKey: binding.frameKey, idp });
    return `${portalUrl}${page}`;
  }

  app.post(
    '/launch',
    {
      // A cross-site form post from the platform: no XSRF header can come with it; the signed
      // id_token, its nonce and the single-use state are what make it trustworthy.
      config: { public: true, xsrf: false },
      schema: {
        tags,
        summary: 'LTI 1.3 launch (id_token form post): validates, records, redirects to the host',
        body: LaunchForm,
        response: { 400: FieldErrors },
      },
    },
    async (request, reply) => {
      const { id_token: idToken, state } = request.body;
      // Only states of our own making name a cookie (anything else is no valid cookie name).
      const ours = typeof state === 'string' && STATE_PATTERN.test(state);
      const stateCookie = ours ? request.cookies[stateCookieName(state)] : undefined;
      if (ours) {
        reply.clearCookie(
          stateCookieName(state),
          launchCookieOptions(portalUrl, { path: STATE_COOKIE_PATH }),
        );
      }
      if (ours && stateCookie === undefined && typeof idToken === 'string') {
        // No cookie came back (a frame with third-party cookies blocked): where the login kept
        // the state in the platform's storage frame, a page reads it back first (second step).
        const pending = await lti.pendingLogin(state);
        const platform = pending?.storageTarget ? await lti.find(pending.platformId) : null;
        if (pending?.storageTarget && platform) {
          const lang = pageLanguage(request.headers['accept-language']);
          const page = getStatePage(
            { lang, platform, portalUrl },
            { target: pending.storageTarget, state, idToken, verify: `${launchUrl}/storage` },
          );
          return sendPage(reply, page);
        }
      }
      const location = await finishLaunch(request, reply, { idToken, state, stateCookie });
      return reply.redirect(location, 302);
    },
  );

  app.post(
    '/launch/storage',
    {
      // Same origin only: a JSON body, which no cross-site page can send without a CORS
      // preflight the API never grants; the frame may have no XSRF cookie (third-party blocked).
      config: { public: true, xsrf: false },
      // This plugin parses forms too (the platform's posts): here they are refused outright.
      preValidation: async (request) => {
        if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
          throw detailError(415, 'The body must be application/json.');
        }
      },
      schema: {
        tags,
        summary: "The launch's second step: the state read back from the platform's storage frame",
        body: LaunchStorageCheck,
        response: { 200: LaunchStorageAnswer, 400: FieldErrors },
      },
    },
    async (request, reply) => {
      const { id_token: idToken, state, stored_state: stored } = request.body;
      const pending = await lti.pendingLogin(state);
      if (!pending?.storageTarget || stored !== state) {
        // Refused for good: the state is spent like any other refused launch's.
        await lti.consumeState(state);
        request.log.warn({ lti: { reason: 'state_storage' } }, 'LTI launch refused');
        return { location: errorLocation('INVALID_STATE') };
      }
      // The state the platform's storage kept for this browser stands where the cookie would.
      return {
        location: await finishLaunch(request, reply, { idToken, state, stateCookie: stored }),
      };
    },
  );

  app.get(
    '/frame-origins',
    {
      // Public: the same list is in the frame-ancestors header of every /lti/ page the host serves.
      config: { public: true },
      schema: {
        tags,
        summary: 'Origins that may frame the LTI pages (the registered platforms), for the host',
        response: { 200: LtiFrameOrigins, 304: Type.Null() },
      },
    },
    async (request, reply) => {
      const current = await registeredFrameOrigins(app.db, portalUrl);
      const etag = `"${current.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return current;
    },
  );

  app.get(
    '/jwks',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "The tool's public keys (JWKS) for platforms to verify its signatures",
        response: { 200: LtiJwks },
      },
    },
    async (_request, reply) => {
      // Short: a rotation must reach platforms within the retired key's publishing time.
      reply.header('cache-control', 'public, max-age=300');
      return toolKeys.jwks();
    },
  );
};

export default ltiRoutes;
