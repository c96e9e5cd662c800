import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { acceptFormBodies } from '../../../../lib/form-body';
import { accountSettled } from '../../../../lti/broker/account-link';
import {
  BINDING_COOKIE,
  BROKER_PATH,
  clearBindingCookie,
} from '../../../../lti/broker/binding-cookie';
import { createBrokerKeys } from '../../../../lti/broker/broker-keys';
import { createBrokerStore } from '../../../../lti/broker/broker-store';
import {
  accessTokenSubject,
  issueTokens,
  secretMatches,
  verifierMatches,
} from '../../../../lti/broker/broker-tokens';
import { brokerClaims } from '../../../../lti/broker/broker-user';

const tags = ['lti'];
const FORM_BODY_LIMIT = 16 * 1024;

const Param = (max: number) => Type.Optional(Type.String({ maxLength: max }));

const AuthorizeParams = Type.Object({
  client_id: Param(255),
  redirect_uri: Param(2000),
  response_type: Param(50),
  scope: Param(500),
  state: Param(2000),
  nonce: Param(500),
  login_hint: Param(100),
  code_challenge: Param(128),
  code_challenge_method: Param(10),
});
type AuthorizeParams = Static<typeof AuthorizeParams>;

const TokenForm = Type.Object({
  grant_type: Param(100),
  code: Param(200),
  redirect_uri: Param(2000),
  code_verifier: Param(128),
  client_id: Param(255),
  client_secret: Param(500),
});
type TokenForm = Static<typeof TokenForm>;

const OAuthError = Type.Object({
  error: Type.String(),
  error_description: Type.Optional(Type.String()),
});

/** RFC 7636: 43–128 characters of the unreserved set. */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** client_secret_basic: `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1). */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}

/**
 * A launch is a sign-in (issue #22 point 1): an OpenID provider whose only way to authenticate
 * is the LTI launch this browser just made. The identity provider (bundled, or a real Keycloak)
 * brokers it as the identity provider `LTI_BROKER_ALIAS`; its one client is that provider, with
 * the secret LTI_BROKER_CLIENT_SECRET, redirecting to `{OIDC_ISSUER}/broker/{alias}/endpoint`.
 * Public routes: the browser and the identity provider call them without a portal token; the
 * binding cookie, the client secret and the single-use code are what they trust.
 */
const brokerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { portalUrl, oidcIssuer, ltiBroker } = app.config;
  const issuer = `${portalUrl}${BROKER_PATH}`;
  const keys = createBrokerKeys(app.db);
  if (ltiBroker) await keys.ensure();
  const store = createBrokerStore(app.db);
  const redirectUri = ltiBroker ? `${oidcIssuer}/broker/${ltiBroker.alias}/endpoint` : null;

  acceptFormBodies(app, FORM_BODY_LIMIT);

  const notConfigured = (reply: FastifyReply) =>
    reply
      .code(404)
      .send({ error: 'not_found', error_description: 'Sign-in by launch is not configured.' });

  app.get(
    '/.well-known/openid-configuration',
    {
      config: { public: true },
      schema: { tags, summary: "The launch sign-in broker's OpenID Connect discovery document" },
    },
    async (_request, reply) => {
      if (!ltiBroker) return notConfigured(reply);
      return {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/certs`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'profile', 'email'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        claims_supported: [
          'sub',
          'name',
          'given_name',
          'family_name',
          'email',
          'email_verified',
          'preferred_username',
        ],
      };
    },
  );

  /** Back to the client with an OAuth error (RFC 6749 §4.1.2.1), never a page of ours. */
  const refuse = (
    reply: FastifyReply,
    target: string,
    state: string | undefined,
    error: string,
    description: string,
  ) => {
    const url = new URL(target);
    url.searchParams.set('error', error);
    url.searchParams.set('error_description', description);
    if (state !== undefined) url.searchParams.set('state', state);
    url.searchParams.set('iss', issuer);
    return reply.redirect(url.toString(), 302);
  };

  const REFUSAL_TEXT = {
    no_binding: 'This browser did not make the launch (no launch cookie).',
    expired: 'The launch is too old to sign in with; launch again from the course.',
    used: 'The launch was already used to sign in; launch again from the course.',
    other_launch: 'This browser made another launch.',
  } as const;

  async function authorize(params: AuthorizeParams, request: FastifyRequest, reply: FastifyReply) {
    if (!ltiBroker || !redirectUri) return notConfigured(reply);
    // An unknown client or redirect URI is never redirected to (RFC 6749 §4.1.2.1).
    if (params.client_id !== ltiBroker.clientId || params.redirect_uri !== redirectUri) {
      return reply.code(400).send({
        error: 'invalid_request',
        error_description: 'Unknown client_id or unregistered redirect_uri.',
      });
    }
    const { state } = params;
    if (params.response_type !== 'code') {
      return refuse(
        reply,
        redirectUri,
        state,
        'unsupported_response_type',
        'Only response_type=code is supported.',
      );
    }
    const scopes = (params.scope ?? '').split(' ').filter(Boolean);
    if (!scopes.includes('openid')) {
      return refuse(reply, redirectUri, state, 'invalid_scope', 'The scope must include openid.');
    }
    const challenge = params.code_challenge;
    if (
      challenge !== undefined &&
      (params.code_challenge_method !== 'S256' || !PKCE_VALUE.test(challenge))
    ) {
      return refuse(
        reply,
        redirectUri,
        state,
        'invalid_request',
        'PKCE needs an S256 code_challenge.',
      );
    }
    if (!params.login_hint) {
      return refuse(
        reply,
        redirectUri,
        state,
        'invalid_request',
        'login_hint must name the launch.',
      );
    }
    const bound = await store.spendBinding(request.cookies[BINDING_COOKIE], params.login_hint);
    // Spent or not, the cookie has done its work: a later request needs a new launch.
    if (request.cookies[BINDING_COOKIE] !== undefined) clearBindingCookie(reply, portalUrl);
    if (!bound.ok) {
      request.log.warn({ reason: bound.reason }, 'LTI broker sign-in refused');
      return refuse(reply, redirectUri, state, 'access_denied', REFUSAL_TEXT[bound.reason]);
    }
    // A user the launch just created reaches the identity provider through the outbox (which
    // holds identity items only while a provider is configured).
    if (app.identityAdmin && !(await accountSettled(app.db, bound.userId))) {
      request.log.warn(
        { userId: bound.userId },
        'LTI broker: the account is not at the identity provider yet',
      );
    }
    if (!(await brokerClaims(app.db, bound.userId, params.login_hint))) {
      request.log.warn(
        { userId: bound.userId },
        'LTI broker sign-in refused: user or organisation deactivated',
      );
      return refuse(
        reply,
        redirectUri,
        state,
        'access_denied',
        'The account or its organisation is deactivated.',
      );
    }
    const code = await store.issueCode({
      userId: bound.userId,
      launchId: params.login_hint.toLowerCase(),
      clientId: ltiBroker.clientId,
      redirectUri,
      nonce: params.nonce ?? null,
      codeChallenge: challenge ?? null,
      scope: scopes.join(' '),
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (state !== undefined) target.searchParams.set('state', state);
    target.searchParams.set('iss', issuer);
    return reply.redirect(target.toString(), 302);
  }

  app.get(
    '/auth',
    {
      // A HEAD must not spend the binding.
      exposeHeadRoute: false,
      config: { public: true },
      schema: {
        tags,
        summary:
          'Authorization endpoint: signs in the user of the launch this browser made (login_hint = launchId)',
        querystring: AuthorizeParams,
        response: { 400: OAuthError },
      },
    },
    (request, reply) => authorize(request.query, request, reply),
  );

  const tokenError = (reply: FastifyReply, status: number, error: string, description: string) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .send({ error, error_description: description });

  async function token(form: TokenForm, request: FastifyRequest, reply: FastifyReply) {
    if (!ltiBroker || !redirectUri) return notConfigured(reply);
    const basic = basicCredentials(request.headers.authorization);
    const clientId = basic?.id ?? form.client_id;
    const secret = basic?.secret ?? form.client_secret;
    if (
      clientId !== ltiBroker.clientId ||
      secret === undefined ||
      !secretMatches(secret, ltiBroker.clientSecret)
    ) {
      if (basic) reply.header('www-authenticate', 'Basic realm="lti-broker"');
      return tokenError(reply, 401, 'invalid_client', 'Client authentication failed.');
    }
    if (form.grant_type !== 'authorization_code') {
      return tokenError(
        reply,
        400,
        'unsupported_grant_type',
        'Only authorization_code is supported.',
      );
    }
    if (!form.code) return tokenError(reply, 400, 'invalid_request', 'code is required.');
    const verifier = form.code_verifier;
    const redeemed = await store.redeemCode(form.code, (grant) => {
      if (grant.clientId !== clientId) return 'The code was issued to another client.';
      if (form.redirect_uri !== grant.redirectUri)
        return 'redirect_uri differs from the authorization request.';
      if (
        grant.codeChallenge !== null &&
        (!verifier || !verifierMatches(verifier, grant.codeChallenge))
      ) {
        return 'PKCE verification failed.';
      }
      return null;
    });
    if (!redeemed.ok) {
      const why =
        redeemed.error === 'invalid_code'
          ? 'The code is unknown, used or expired.'
          : redeemed.error;
      return tokenError(reply, 400, 'invalid_grant', why);
    }
    const { grant } = redeemed;
    // Checked again: the user or their organisation may have been deactivated since.
    const claims = await brokerClaims(app.db, grant.userId, grant.launchId);
    if (!claims)
      return tokenError(
        reply,
        400,
        'invalid_grant',
        'The account or its organisation is deactivated.',
      );
    const tokens = await issueTokens(keys, {
      issuer,
      clientId,
      claims,
      nonce: grant.nonce,
      scope: grant.scope,
      launchId: grant.launchId,
    });
    return reply.header('cache-control', 'no-store').send({
      access_token: tokens.accessToken,
      token_type: 'Bearer',
      expires_in: tokens.expiresIn,
      id_token: tokens.idToken,
      scope: grant.scope,
    });
  }

  app.post(
    '/token',
    {
      // Server to server (the identity provider), authenticated by the client secret.
      config: { public: true, xsrf: false },
      schema: {
        tags,
        summary:
          'Token endpoint: the identity provider redeems an authorization code (single use, PKCE)',
        body: TokenForm,
        response: { 400: OAuthError, 401: OAuthError },
      },
    },
    (request, reply) => token(request.body, request, reply),
  );

  app.get(
    '/certs',
    {
      config: { public: true },
      schema: { tags, summary: "The launch sign-in broker's public keys (JWKS)" },
    },
    async (_request, reply) => {
      if (!ltiBroker) return notConfigured(reply);
      reply.header('cache-control', 'public, max-age=300');
      return keys.jwks();
    },
  );

  async function userinfo(request: FastifyRequest, reply: FastifyReply) {
    if (!ltiBroker) return notConfigured(reply);
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const subject = bearer ? await accessTokenSubject(keys, issuer, bearer) : null;
    const claims = subject ? await brokerClaims(app.db, subject.userId, subject.launchId) : null;
    if (!claims) {
      return reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({
        error: 'invalid_token',
        error_description: 'The access token is invalid or expired.',
      });
    }
    return reply.header('cache-control', 'no-store').send(claims);
  }

  const userinfoSchema = {
    tags,
    summary: 'Userinfo of a broker access token',
    response: { 401: OAuthError },
  };
  app.get('/userinfo', { config: { public: true }, schema: userinfoSchema }, userinfo);
  app.post(
    '/userinfo',
    { config: { public: true, xsrf: false }, schema: userinfoSchema },
    userinfo,
  );
};

export default brokerRoutes;
