import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { DEMO_ACCOUNTS, DEMO_BRIGHTSPACE_ACCOUNTS, DEMO_PASSWORD } from '@portal/contract/demo-accounts';
import pino from 'pino';

import { hashPassword, verifyPassword } from '../src/accounts/passwords';
import { checkPassword } from '../src/accounts/password-policy';
import { createUserStore, UserConflictError } from '../src/accounts/users';

const logger = pino({ level: 'silent' });

describe('user store', () => {
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'identity-users-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('starts with the demo accounts at their fixed ids and keeps created users across a restart, in an owner-only file', async () => {
    const first = await createUserStore({ dataDir, logger, seedDemo: true });
    assert.deepEqual(
      DEMO_ACCOUNTS.map((account) => first.get(account.sub)?.email),
      DEMO_ACCOUNTS.map((account) => account.email),
    );
    // Demo Brightspace College's learner and educator too, with the demo password.
    for (const account of DEMO_BRIGHTSPACE_ACCOUNTS) {
      assert.deepEqual(first.get(account.sub)?.attributes.organisation, ['Demo Brightspace College']);
      assert.equal((await first.verifyCredentials(account.email, DEMO_PASSWORD))?.id, account.sub);
    }
    const created = first.create({ email: 'Kept@Example.test', firstName: 'Kept', enabled: true });
    first.setPasswordHash(created.id, await hashPassword('kept password'));
    const gone = DEMO_ACCOUNTS.find((account) => account.role === 'educator')!;
    assert.equal(first.delete(gone.sub), true);
    await first.flush();

    const file = join(dataDir, 'users.json');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const text = await readFile(file, 'utf8');
    assert.equal(text.includes('kept password'), false, 'no password is stored as typed');
    assert.equal(text.includes('demo1234'), false);

    const second = await createUserStore({ dataDir, logger, seedDemo: true });
    assert.equal(second.findByEmail('kept@example.test')?.id, created.id);
    assert.equal((await second.verifyCredentials('kept@example.test', 'kept password'))?.id, created.id);
    assert.equal(second.get(gone.sub), undefined, 'a deleted demo account stays deleted');
    assert.ok(await second.verifyCredentials('learner@demo.test', 'demo1234'));
  });

  it('holds no demo account without seedDemo (SEED_DEMO off: production)', async () => {
    const users = await createUserStore({ dataDir: null, logger, seedDemo: false });
    assert.deepEqual(users.all(), []);
    assert.equal(await users.verifyCredentials('sysadmin@demo.test', 'demo1234'), undefined);
  });

  it('refuses a second user with the same e-mail, and an e-mail change onto another user', async () => {
    const users = await createUserStore({ dataDir: null, logger, seedDemo: true });
    const a = users.create({ email: 'a@example.test' });
    users.create({ email: 'b@example.test' });
    assert.throws(() => users.create({ email: ' A@EXAMPLE.TEST' }), UserConflictError);
    assert.throws(() => users.update(a.id, { email: 'B@example.test' }), UserConflictError);
    assert.equal(users.get(a.id)?.email, 'a@example.test');
  });

  it('signs in nobody without a password, while UPDATE_PASSWORD is pending, or while disabled', async () => {
    const users = await createUserStore({ dataDir: null, logger, seedDemo: true });
    const user = users.create({ email: 'pending@example.test', enabled: true, requiredActions: ['UPDATE_PASSWORD'] });
    assert.equal(await users.verifyCredentials(user.email, ''), undefined);
    const hash = await hashPassword('long enough');
    const withPassword = users.create({ email: 'temporary@example.test', enabled: true, requiredActions: ['UPDATE_PASSWORD'], passwordHash: hash });
    assert.equal(await users.verifyCredentials(withPassword.email, 'long enough'), undefined);
    const set = users.setPasswordHash(user.id, hash);
    assert.deepEqual(set?.requiredActions, []);
    assert.equal(set?.credentialVersion, 1, 'earlier set-password links die with the change');
    assert.equal((await users.verifyCredentials(user.email, 'long enough'))?.id, user.id);
    users.update(user.id, { enabled: false });
    assert.equal(await users.verifyCredentials(user.email, 'long enough'), undefined);
  });
});

describe('passwords', () => {
  it('hashes with a fresh salt each time and verifies only the same password', async () => {
    const [one, two] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    assert.notEqual(one, two);
    assert.match(one, /^scrypt\$32768\$8\$1\$/);
    assert.equal(await verifyPassword('same', one), true);
    assert.equal(await verifyPassword('Same', one), false);
    assert.equal(await verifyPassword('same', 'plain'), false);
  });

  it('hashes at the cost it is given, and verifies each hash at its own cost', async () => {
    const cheap = await hashPassword('same', 10);
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    assert.equal(await verifyPassword('same', cheap), true);
    await assert.rejects(hashPassword('same', 9), RangeError);
    await assert.rejects(hashPassword('same', 18), RangeError);
  });

  it('follows the rules: 8 to 128 characters, not the e-mail, confirmed', () => {
    const base = { email: 'user@example.test', username: 'user@example.test' };
    assert.deepEqual(checkPassword({ ...base, password: 'seven77' }), { password: 'tooShort' });
    assert.deepEqual(checkPassword({ ...base, password: 'äöüäöüäö' }), {}, 'counted in characters');
    assert.deepEqual(checkPassword({ ...base, password: 'x'.repeat(129) }), { password: 'tooLong' });
    assert.deepEqual(checkPassword({ ...base, password: 'User@Example.test' }), { password: 'equalsEmail' });
    assert.deepEqual(checkPassword({ ...base, password: 'long enough', confirmation: 'long enougH' }), { confirmation: 'mismatch' });
    assert.deepEqual(checkPassword({ ...base, password: 'long enough', confirmation: 'long enough' }), {});
  });
});
