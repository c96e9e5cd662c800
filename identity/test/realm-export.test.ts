import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';

import { DEMO_ACCOUNTS } from '@portal/contract/demo-accounts';

import { buildRealmExport, realmExportJson } from '../src/realm-export';

describe('Keycloak realm export', () => {
  it('matches keycloak/realm-main.json (run `pnpm --filter @portal/identity realm-export` after changes)', async () => {
    const committed = await readFile(new URL('../keycloak/realm-main.json', import.meta.url), 'utf8');
    assert.equal(committed, realmExportJson());
  });

  it('describes a public PKCE S256 client and the demo users with their fixed ids', () => {
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
    assert.deepEqual(
      realm.users.map((user) => user.id),
      DEMO_ACCOUNTS.map((account) => account.sub),
    );
    assert.ok(realm.users.every((user) => user.credentials.every((credential) => credential.temporary)));
  });
});
