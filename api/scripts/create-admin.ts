// Creates a global administrator: `npm run create-admin -- --email you@example.com` from the
// repository root (scripts/create-admin.mjs runs this with the API's environment). Reads the same
// variables as the API: DATABASE_URL or PGLITE_DIR, OIDC_ISSUER, IDENTITY_ADMIN_*, PORTAL_URL.
import { parseArgs } from 'node:util';
import { createDb } from '../src/db/create-db';
import { migrate } from '../src/db/migrate';
import { createGlobalAdmin, CreateAdminError, invitationLinkFromOutbox } from '../src/identity/create-admin';
import { createKeycloakIdentityAdmin } from '../src/identity/identity-admin';
import { seedReferenceData } from '../src/reference/seed-reference-data';
import { embeddedDatabaseInUse, fail, loadCommandConfig } from './command-setup';

const USAGE = 'usage: npm run create-admin -- --email you@example.com [--first-name Ada] [--last-name Lovelace]';

let values: { email?: string; 'first-name'?: string; 'last-name'?: string };
try {
  ({ values } = parseArgs({
    options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (!values.email) fail(`--email is required\n${USAGE}`);

const config = loadCommandConfig();
if (!config.identityAdmin) {
  fail('IDENTITY_ADMIN_URL, IDENTITY_ADMIN_CLIENT_ID and IDENTITY_ADMIN_CLIENT_SECRET must name the identity provider (as for the API)');
}
const inUse = await embeddedDatabaseInUse(config);
if (inUse) fail(inUse);

const db = await createDb(config);
try {
  await migrate(db);
  await seedReferenceData(db);
  const identity = createKeycloakIdentityAdmin(config.identityAdmin, {
    invitationClientId: config.oidcClientId,
    portalUrl: config.portalUrl,
  });
  const email = values.email.trim().toLowerCase();
  const result = await createGlobalAdmin(db, identity, {
    email,
    firstName: values['first-name'] ?? 'Portal',
    lastName: values['last-name'] ?? 'Administrator',
  });
  const link = await invitationLinkFromOutbox(config.identityAdmin.baseUrl, email);
  console.log(
    [
      result.created ? `Global administrator ${email} created (user ${result.userId}).` : `${email} is already a global administrator; a new invitation was sent.`,
      link
        ? `Set the password once, with this link (it works once and expires; open it while the portal runs):\n  ${link}`
        : `The identity provider e-mailed the set-password link to ${email} (it works once and expires).`,
      `Then sign in at ${config.portalUrl}/`,
    ].join('\n'),
  );
} catch (error) {
  console.error(error instanceof CreateAdminError ? error.message : `Could not create the administrator: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  // Closed before exit: PGlite writes its last pages on close.
  await db.close();
}
