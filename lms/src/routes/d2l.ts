import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signedInUser, toSignIn, type LmsContext } from '../context';
import { html, page } from '../html';
import { displayName } from '../store';

type Params = Record<string, string | undefined>;

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The Brightspace side the portal talks to (D2L OAuth 2.0 and Valence): the authorization-code
 * flow, whoami, and the home and logout pages the portal links to.
 */
export function d2lRoutes(
  app: FastifyInstance,
  ctx: LmsContext,
  sendPage: (reply: FastifyReply, body: string, status?: number) => unknown,
  signOut: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  const { store } = ctx;
  const portalOrigin = new URL(ctx.portalUrl).origin;
  const refuse = (reply: FastifyReply, reason: string) =>
    sendPage(reply, page('Authorisation refused', html`<h1>Authorisation refused</h1><p class="problem" role="alert">${reason}</p>`), 400);

  /** Any redirect URI on the portal's origin is registered (the portal chooses its callback path). */
  const registered = (uri: string | undefined): uri is string => {
    try {
      return uri !== undefined && new URL(uri).origin === portalOrigin;
    } catch {
      return false;
    }
  };

  app.get<{ Querystring: Params }>('/d2l/oauth2/auth', async (request, reply) => {
    const q = request.query;
    if (q.client_id !== ctx.brightspaceClientId) return refuse(reply, 'unknown client_id');
    if (!registered(q.redirect_uri)) return refuse(reply, 'redirect_uri is not registered for this client');
    const back = new URL(q.redirect_uri);
    if (q.response_type !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
      if (q.state !== undefined) back.searchParams.set('state', q.state);
      return reply.redirect(back.toString(), 303);
    }
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    const scope = q.scope ?? 'core:*:*';
    back.searchParams.set('code', store.d2lCodes.put({ userId: user.id, clientId: q.client_id, redirectUri: q.redirect_uri, scope }));
    if (q.state !== undefined) back.searchParams.set('state', q.state);
    return reply.redirect(back.toString(), 302);
  });

  app.post<{ Body: Params }>('/d2l/oauth2/token', async (request, reply) => {
    const form = request.body ?? {};
    const fail = (status: number, error: string, description: string) =>
      reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description });
    // RFC 6749 §2.3.1: HTTP Basic or the two form fields.
    let clientId = form.client_id;
    let secret = form.client_secret;
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    if (clientId !== ctx.brightspaceClientId || !ctx.brightspaceClientSecret || !secret || !sameText(secret, ctx.brightspaceClientSecret)) {
      return fail(401, 'invalid_client', 'unknown client or wrong secret');
    }
    let grant: { userId: string; scope: string } | null;
    if (form.grant_type === 'authorization_code') {
      const code = store.d2lCodes.take(form.code);
      if (!code || code.clientId !== clientId || code.redirectUri !== form.redirect_uri) return fail(400, 'invalid_grant', 'code unknown, used, expired or for another redirect_uri');
      grant = { userId: code.userId, scope: code.scope };
    } else if (form.grant_type === 'refresh_token') {
      grant = store.d2lRefreshTokens.take(form.refresh_token);
      if (!grant) return fail(400, 'invalid_grant', 'refresh_token unknown, used or expired');
    } else {
      return fail(400, 'unsupported_grant_type', 'authorization_code or refresh_token');
    }
    return reply.header('cache-control', 'no-store').send({
      access_token: store.d2lTokens.put(grant),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: store.d2lRefreshTokens.put(grant),
      scope: grant.scope,
    });
  });

  app.get<{ Params: { version: string } }>('/d2l/api/lp/:version/users/whoami', async (request, reply) => {
    if (!/^1\.\d+$/.test(request.params.version)) return reply.code(404).send({ error: 'unknown API version' });
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const grant = match ? store.d2lTokens.get(match[1]) : null;
    const user = grant ? store.user(grant.userId) : null;
    if (!user) return reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send({ error: 'invalid_token' });
    // Valence WhoAmIUser; Identifier is the user's id, the `sub` of this user's LTI launches.
    return {
      Identifier: user.id,
      FirstName: user.firstName,
      LastName: user.lastName,
      UniqueName: user.email,
      ProfileIdentifier: `profile-${user.id}`,
    };
  });

  app.get('/d2l/home', async (request, reply) => {
    const user = signedInUser(ctx, request);
    if (!user) return toSignIn(request, reply);
    return sendPage(
      reply,
      page('Home', html`<h1>Welcome, ${displayName(user)}</h1><p>Your courses:</p><ul><li><a href="/course">Demo course</a></li></ul><p><a href="/gradebook">Grades</a></p>`, {
        user: { name: displayName(user) },
      }),
    );
  });

  app.get('/d2l/logout', async (request, reply) => {
    signOut(request, reply);
    return sendPage(reply, page('Signed out', html`<h1>You are signed out</h1><p><a href="/login">Sign in again</a></p>`));
  });
}
