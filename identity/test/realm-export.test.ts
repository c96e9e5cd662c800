import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

import { DEMO_ACCOUNTS, DEMO_COHORT } from '@portal/contract/demo-accounts';

import { buildRealmExport, realmExportJson } from '../src/realm-export';

describe('Keycloak realm export', () => {
  it('matches keycloak/realm-main.json (run `pnpm --filter @portal/identity realm-export` after changes)', async () => {
    const committed = await readFile(new URL('../keycloak/realm-main.json', import.meta.url), 'utf8');
    assert.equal(committed, realmExportJson());
  });

  it('describes a public PKCE S256 client and the demo users and demo learners with their fixed ids', () => {
    const realm = buildRealmExport();
    const [client] = realm.clients;
    assert.equal(client?.clientId, 'frontend');
    assert.equal(client?.publicClient, true);
    assert.equal(client?.attributes['pkce.code.challenge.method'], 'S256');
    assert.equal(client?.attributes['oauth2.device.authorization.grant.enabled'], 'true');
    assert.deepEqual(realm.supportedLocales, ['en', 'de']);
    assert.deepEqual(
      realm.roles.realm.map((role) => role.name),
      ['learner', 'educator', 'org admin', 'sys admin'],
    );
    const demoUsers = realm.users.filter((user) => 'id' in user);
    assert.deepEqual(
      demoUsers.map((user) => ('id' in user ? user.id : undefined)),
      [...DEMO_ACCOUNTS, ...DEMO_COHORT].map((account) => account.sub),
    );
    assert.ok(demoUsers.every((user) => 'credentials' in user && user.credentials.every((credential) => credential.temporary)));
    assert.equal(realm.registrationEmailAsUsername, true);
  });

  it('describes the confidential portal-api service client with manage-users and view-users, its secret only a placeholder', () => {
    const realm = buildRealmExport();
    const service = realm.clients.find((client) => client.clientId === 'portal-api');
    assert.ok(service);
    assert.equal(service.publicClient, false);
    assert.equal(service.serviceAccountsEnabled, true);
    assert.equal(service.standardFlowEnabled, false);
    assert.equal('secret' in service && service.secret, '${PORTAL_API_CLIENT_SECRET}');
    const account = realm.users.find((user) => 'serviceAccountClientId' in user && user.serviceAccountClientId === 'portal-api');
    assert.deepEqual(account?.clientRoles, { 'realm-management': ['manage-users', 'view-users'] });
    assert.match(realm.smtpServer.host, /^\$\{SMTP_HOST\}$/, 'SMTP settings come from the environment too');
  });
});
