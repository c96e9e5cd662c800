import fp from 'fastify-plugin';
import { createKeycloakIdentityAdmin, type IdentityAdmin } from '../../identity/identity-admin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The identity provider's admin API; null when IDENTITY_ADMIN_* is not configured. */
    identityAdmin: IdentityAdmin | null;
  }
}

export interface IdentityAdminPluginOptions {
  /** Another implementation (tests); otherwise Keycloak's Admin REST API from the config. */
  identityAdmin?: IdentityAdmin | null;
}

export const identityAdminPlugin = fp<IdentityAdminPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const admin =
      options.identityAdmin !== undefined
        ? options.identityAdmin
        : config.identityAdmin
          ? createKeycloakIdentityAdmin(config.identityAdmin, {
              invitationClientId: config.oidcClientId,
              portalUrl: config.portalUrl,
            })
          : null;
    if (!admin) {
      app.log.warn(
        'IDENTITY_ADMIN_URL is not set: new users are stored, but their accounts wait in the ' +
          'outbox until identity provisioning is configured, and they cannot sign in before',
      );
    }
    app.decorate('identityAdmin', admin);
  },
  { name: 'identity-admin', dependencies: ['config'] },
);
