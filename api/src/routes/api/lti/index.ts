import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { FieldErrors, LTI_MESSAGES, LtiJwks, type LtiErrorCode } from '@portal/contract';
import { badRequest } from '../../../lib/http-errors';
import { createOutboundClient, outboundPolicyFor } from '../../../lib/outbound-http';
import { createPlatformKeys } from '../../../lti/platform-keys';
import { createToolKeys } from '../../../lti/tool-keys';
import { STATE_PATTERN, validateLaunch, type LaunchStores } from '../../../lti/validate-launch';
import { LOGIN_STATE_TTL_SECONDS } from '../../../repositories/lti-repository';
import { recordLtiLaunch } from '../../../services/lti/record-launch';

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
});
type LoginParams = Static<typeof LoginParams>;

/** The platform's auto-posted form; other fields a platform adds are ignored. */
const LaunchForm = Type.Object({
  id_token: Param(FORM_BODY_LIMIT),
  state: Param(200),
});

/** Cookie naming the state this browser started; per state, so parallel logins do not clash. */
const stateCookieName = (state: string) => `lti_state_${state.slice(0, 16)}`;

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

  const outbound = createOutboundClient({ policy: outboundPolicyFor(portalUrl) });
  app.addHook('onClose', () => outbound.close());
  const stores: LaunchStores = {
    consumeState: (state) => lti.consumeState(state),
    platform: (id) => lti.registered(id),
    keys: createPlatformKeys(outbound, (id) => lti.jwksUrlOf(id)),
  };

  // Platforms post forms (application/x-www-form-urlencoded); only these routes read them.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [k, v] of new URLSearchParams(body as string)) {
        if (!Object.hasOwn(fields, k) && k !== '__proto__') fields[k] = v;
      }
      done(null, fields);
    },
  );

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
    const { state, nonce } = await lti.createLoginState(platform.id);
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
    // missing and the single-use state alone stands (see validateLaunch).
    const secure = request.protocol === 'https';
    reply.setCookie(stateCookieName(state), state, {
      path: '/api/lti',
      httpOnly: true,
      secure,
      sameSite: secure ? 'none' : 'lax',
      maxAge: LOGIN_STATE_TTL_SECONDS,
    });
    return reply.redirect(target.toString(), 302);
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

  const toError = (reply: FastifyReply, error: LtiErrorCode) =>
    reply.redirect(`${portalUrl}/lti/error?error=${encodeURIComponent(error)}`, 302);

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
      const result = await validateLaunch({ idToken, state, stateCookie }, stores, {
        skewSeconds: app.config.ltiClockLeewaySeconds,
      });
      if (ours) reply.clearCookie(stateCookieName(state), { path: '/api/lti' });
      if (!result.ok) {
        request.log.warn({ lti: result }, 'LTI launch refused');
        return toError(reply, result.error);
      }
      const launch = result.launch;
      const outcome = await recordLtiLaunch(app, launch);
      if (!outcome.ok) {
        request.log.warn({ lti: outcome, iss: launch.platform.issuer }, 'LTI launch refused');
        return toError(reply, outcome.error);
      }
      const query = new URLSearchParams({ launchId: outcome.launchId });
      if (launch.messageType === 'LtiDeepLinkingRequest') {
        // The instructor's picker (issue #10 point 5) reads the recorded deep-linking settings.
        return reply.redirect(`${portalUrl}/lti/deep-link?${query}`, 302);
      }
      // The launch parameters of docs/requirements.md#data, plus the mode when the link names one (the launch screen
      // otherwise starts the LTI default mode).
      for (const name of ['configuration', 'protocol', 'productId', 'mode'] as const) {
        const value = launch.custom[name];
        if (value !== undefined) query.set(name, value);
      }
      return reply.redirect(`${portalUrl}/lti/launch?${query}`, 302);
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
