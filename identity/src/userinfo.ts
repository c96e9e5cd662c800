import type { IncomingMessage, ServerResponse } from 'node:http';

import { createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';

import { readForm, sendJson } from './http';
import { ACCESS_TOKEN_AUDIENCE, userClaims } from './keycloak-claims';
import { publicJwks, type SigningJwks } from './signing-keys';
import type { UserStore } from './users';

export interface UserinfoHandlerOptions {
  provider: Provider;
  issuer: string;
  jwks: SigningJwks;
  frontendOrigins: string[];
  users: UserStore;
}

class InvalidToken extends Error {}

/**
 * oidc-provider refuses access tokens that carry an audience at its userinfo endpoint, but
 * Keycloak's tokens (audience `account`) work at userinfo and the portal relies on that. So this
 * endpoint verifies our own JWT access tokens with jose and answers like Keycloak, including
 * refusing tokens whose session has ended.
 */
export function createUserinfoHandler({ provider, issuer, jwks, frontendOrigins, users }: UserinfoHandlerOptions) {
  const keys = createLocalJWKSet(publicJwks(jwks));

  function corsHeaders(req: IncomingMessage): Record<string, string> {
    const origin = req.headers.origin;
    if (!origin || !frontendOrigins.includes(origin)) return { Vary: 'Origin' };
    return {
      Vary: 'Origin',
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Expose-Headers': 'WWW-Authenticate',
    };
  }

  async function readAccessToken(req: IncomingMessage): Promise<string | undefined> {
    const header = req.headers.authorization;
    if (header) {
      const [scheme, value] = header.split(' ');
      return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
    }
    if (req.method === 'POST') {
      return (await readForm(req)).get('access_token') ?? undefined;
    }
    return undefined;
  }

  async function claimsFor(token: string) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience: ACCESS_TOKEN_AUDIENCE,
        algorithms: ['RS256'],
        typ: 'at+jwt',
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw new InvalidToken(error.message);
      throw error;
    }
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    if (!scopes.includes('openid')) throw new InvalidToken('access token missing openid scope');
    const session = typeof payload.sid === 'string' ? await provider.Session.findByUid(payload.sid) : undefined;
    if (!session || session.accountId !== payload.sub) throw new InvalidToken('session not active');
    // Keycloak also wants the client's session in it: a reused refresh token revokes the grant
    // (provider.ts), and the access tokens it gave must stop working here too.
    const grantId = typeof payload.azp === 'string' ? session.grantIdFor(payload.azp) : undefined;
    if (!grantId || !(await provider.Grant.find(grantId))) throw new InvalidToken('client session not active');
    const account = payload.sub ? users.get(payload.sub) : undefined;
    if (!account?.enabled) throw new InvalidToken('user not found');
    return userClaims(account);
  }

  return async function handleUserinfo(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const cors = corsHeaders(req);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        ...(cors['Access-Control-Allow-Origin']
          ? {
              'Access-Control-Allow-Methods': 'GET, POST',
              'Access-Control-Allow-Headers': 'Authorization, Content-Type',
              'Access-Control-Max-Age': '3600',
            }
          : {}),
      });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'POST') {
      res.writeHead(405, { ...cors, Allow: 'GET, POST, OPTIONS' }).end();
      return;
    }
    const token = await readAccessToken(req);
    if (!token) {
      sendJson(res, 401, { error: 'invalid_request', error_description: 'no access token provided' }, {
        ...cors,
        'WWW-Authenticate': `Bearer realm="${issuer}"`,
      });
      return;
    }
    try {
      sendJson(res, 200, await claimsFor(token), cors);
    } catch (error) {
      if (!(error instanceof InvalidToken)) throw error;
      sendJson(res, 401, { error: 'invalid_token', error_description: error.message }, {
        ...cors,
        'WWW-Authenticate': `Bearer realm="${issuer}", error="invalid_token"`,
      });
    }
  };
}
