import fp from 'fastify-plugin';
import type { Permission } from '@portal/contract';
import { PERMISSIONS } from '@portal/contract';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without a token (health check, OpenAPI document). */
    public?: boolean;
    /**
     * Who may call the route: any one of these permissions (docs/requirements.md#permissions), or `'authenticated'` for
     * every registered user. Every non-public route must say one or the other.
     */
    permissions?: readonly Permission[] | 'authenticated';
    /**
     * Called by the simulator with `Authorization: Session <token>` instead of a user's JWT; the
     * session-token plugin checks it. Excludes `public` and `permissions`.
     */
    sessionToken?: boolean;
    /** `false` exempts an unsafe route from the XSRF check (only for calls no browser page makes). */
    xsrf?: boolean;
  }
  interface FastifyInstance {
    /** Every route registered so far with what it declared; tests check none is undeclared. */
    routeAccess: RouteAccessEntry[];
  }
}

export type Access = 'public' | 'authenticated' | 'session' | readonly Permission[];

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: Access | null;
}

/** The route's declared access, or null when the declaration is missing or contradictory. */
export function accessOf(
  config: { public?: boolean; permissions?: unknown; sessionToken?: unknown } | undefined,
): Access | null {
  if (!config) return null;
  const { permissions } = config;
  if (config.sessionToken !== undefined) {
    return config.sessionToken === true && permissions === undefined && config.public === undefined
      ? 'session'
      : null;
  }
  if (config.public === true) return permissions === undefined ? 'public' : null;
  if (permissions === 'authenticated') return 'authenticated';
  if (
    Array.isArray(permissions) &&
    permissions.length > 0 &&
    permissions.every((p) => (PERMISSIONS as readonly unknown[]).includes(p))
  ) {
    return permissions as readonly Permission[];
  }
  return null;
}

export const accessPlugin = fp(
  async (app) => {
    const entries: RouteAccessEntry[] = [];
    app.decorate('routeAccess', entries);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) {
        entries.push({ method, url: route.url, access: accessOf(route.config) });
      }
    });
  },
  { name: 'access' },
);
