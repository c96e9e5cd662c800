import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

import { DEMO_ACCOUNTS, DEMO_BRIGHTSPACE_ACCOUNTS, DEMO_COHORT } from '@portal/contract/demo-accounts';

import { BRUTE_FORCE } from '../src/security/brute-force';
import { buildDemoUsersImport, buildRealmExport, demoUsersImportJson, realmExportJson } from '../src/oidc/realm-export';

describe('Keycloak realm export', () => {
  it('matches keycloak/realm-main.json (run `pnpm --filter @portal/identity realm-export` after changes)', async () => {
    const committed = await readFile(new URL('../keycloak/realm-main.json', import.meta.url), 'utf8');
    assert.equal(committed, realmExportJson());
    const demo = await readFile(new URL('../keycloak/demo-users.json', import.meta.url), 'utf8');
    assert.equal(demo, demoUsersImportJson());
  });

  it('imports no people: only the service account, no demo user and no password anyone knows', () => {
    const realm = buildRealmExport();
    assert.deepEqual(
      realm.users.map((user) => user.username),
      ['service-account-portal-api'],
    );
    assert.doesNotMatch(realmExportJson(), /demo1234|@demo\.test|"credentials"/);
  });

  it('brokers the portal launch sign-in as identity provider `lti`, its secret left to the environment', () => {
    const [idp, ...others] = buildRealmExport().identityProviders;
    assert.equal(others.length, 0);
    assert.equal(idp?.alias, 'lti');
    assert.equal(idp?.providerId, 'oidc');
    assert.equal(idp?.config.authorizationUrl, '${PORTAL_ORIGIN}/api/lti/broker/auth');
    assert.equal(idp?.config.issuer, '${PORTAL_ORIGIN}/api/lti/broker');
    assert.equal(idp?.config.clientSecret, '${LTI_BROKER_CLIENT_SECRET}');
    assert.equal(idp?.config.validateSignature, 'true');
    assert.equal(idp?.config.pkceEnabled, 'true');
    assert.equal(idp?.config.passLoginHint, 'true');
    assert.equal(idp?.config.hideOnLoginPage, 'true');
    assert.equal(idp?.trustEmail, false, 'accounts are found by the link, never by e-mail');
  });

  it('turns on Keycloak brute-force detection with the values the local provider uses', () => {
    const realm = buildRealmExport();
    assert.equal(realm.bruteForceProtected, true);
    assert.equal(realm.permanentLockout, false);
    // Every setting under Keycloak's own name, from the one place the local provider reads.
    for (const [name, value] of Object.entries(BRUTE_FORCE)) assert.equal(realm[name as keyof typeof realm], value, name);
    assert.equal(realm.failureFactor, 5);
  });

  it('describes a public PKCE S256 client, and the demo users and learners with their fixed ids as a separate import', () => {
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
    const demoImport = buildDemoUsersImport();
    assert.equal(demoImport.ifResourceExists, 'SKIP');
    const demoUsers = demoImport.users;
    assert.deepEqual(
      demoUsers.map((user) => user.id),
      [...DEMO_ACCOUNTS, ...DEMO_BRIGHTSPACE_ACCOUNTS, ...DEMO_COHORT].map((account) => account.sub),
    );
    assert.ok(demoUsers.every((user) => user.credentials.every((credential) => credential.temporary)));
    assert.equal(realm.registrationEmailAsUsername, false, 'accounts without e-mail (launched learners) need their own username');
    assert.equal(realm.loginWithEmailAllowed, true, 'everyone with an e-mail signs in by it');
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
