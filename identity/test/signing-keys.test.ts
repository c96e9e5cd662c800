import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { loadOrCreateSigningJwks, publicJwks } from '../src/oidc/signing-keys';

describe('signing keys', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('creates an owner-only key file once and reuses it after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'identity-keys-'));
    dirs.push(dir);
    const dataDir = join(dir, '.data');
    const first = await loadOrCreateSigningJwks(dataDir);
    const second = await loadOrCreateSigningJwks(dataDir);
    assert.equal(second.keys[0]?.kid, first.keys[0]?.kid);
    assert.equal(first.keys[0]?.alg, 'RS256');
    assert.equal((await stat(join(dataDir, 'signing-keys.json'))).mode & 0o777, 0o600);
  });

  it('publishes no private parts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'identity-keys-'));
    dirs.push(dir);
    const [key] = publicJwks(await loadOrCreateSigningJwks(dir)).keys;
    assert.deepEqual(Object.keys(key ?? {}).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });
});
