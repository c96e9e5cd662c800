import type { FastifyRequest } from 'fastify';
import { createLocalJWKSet, errors as joseErrors, jwtVerify } from 'jose';

import { REALM_MANAGEMENT_CLIENT } from '../../oidc/keycloak-claims';
import { publicJwks, type SigningJwks } from '../../oidc/signing-keys';
import { AdminError } from './errors';

export type AdminRole = 'view-users' | 'manage-users';

export interface Caller {
  roles: string[];
  clientId: string | undefined;
}

const unauthorized = () => new AdminError(401, { error: 'HTTP 401 Unauthorized' });

/** Who presents the request's bearer token: an access token of this realm, or 401. */
export function createAuthenticator({ issuer, jwks }: { issuer: string; jwks: SigningJwks }) {
  const keys = createLocalJWKSet(publicJwks(jwks));
  return async function authenticate(request: FastifyRequest): Promise<Caller> {
    const [scheme, token] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthorized();
    try {
      const { payload } = await jwtVerify(token, keys, { issuer, algorithms: ['RS256'], typ: 'at+jwt' });
      const access = payload.resource_access as Record<string, { roles?: unknown }> | undefined;
      const roles = access?.[REALM_MANAGEMENT_CLIENT]?.roles;
      return {
        roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
        clientId: typeof payload.azp === 'string' ? payload.azp : undefined,
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw unauthorized();
      throw error;
    }
  };
}

/** manage-users implies view-users in Keycloak as well; anything less is 403. */
export function authorize(caller: Caller, role: AdminRole): void {
  const allowed = caller.roles.includes('manage-users') || (role === 'view-users' && caller.roles.includes('view-users'));
  if (!allowed) throw new AdminError(403, { error: 'HTTP 403 Forbidden' });
}
