import { randomBytes } from 'node:crypto';
import { startIdentityApp, type IdentityApp } from '@portal/identity/src/app';
import { buildApp } from '../src/app';
import { createMigratedTestDatabase, testConfig, testJwks, type TestApp } from './helper';

export interface IdentityStack extends TestApp {
  /** The bundled identity provider, in process, with its user store and dev outbox. */
  identity: IdentityApp;
}

/**
 * The app on a fresh seeded database, provisioning accounts in the real bundled identity provider
 * (in process) through its Keycloak admin API as the `portal-api` service client. Only kicks
 * after commits run the outbox worker, so a test sees exactly the effect of its own writes.
 */
export async function startIdentityStack(): Promise<IdentityStack> {
  const secret = randomBytes(32).toString('hex');
  // Accounts made and signed in to throughout: scrypt at 2^10, as identity's own tests.
  const identity = await startIdentityApp({ dataDir: null, serviceClientSecret: secret, devMode: true, passwordHashLog2N: 10 });
  const database = await createMigratedTestDatabase();
  const app = await buildApp({
    config: testConfig({
      identityAdmin: {
        baseUrl: identity.url,
        realm: 'main',
        clientId: 'portal-api',
        clientSecret: secret,
      },
      outboxPollMs: 3_600_000,
    }),
    db: database.db,
    jwks: testJwks,
    logger: false,
  });
  await app.ready();
  return {
    identity,
    app,
    db: database.db,
    async close() {
      await app.close();
      await database.dispose();
      await identity.close();
    },
  };
}
