import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { USER_ADMIN_MESSAGES, type BulkUserResult, type InvitationResult } from '@portal/contract';
import {
  IdentityCallError,
  type AccountFields,
  type FederatedIdentityLink,
  type IdentityAdmin,
} from '../../../../../src/identity/identity-admin';
import { identityAccountKinds } from '../../../../../src/identity/account-handlers';
import { createOutboxRegistry } from '../../../../../src/outbox/handler-registry';
import { createOutboxWorker } from '../../../../../src/outbox/outbox-worker';
import { buildTestApp, type TestApp } from '../../../../helper';
import {
  bulkAdd,
  createLicense,
  csvOf,
  headers,
  orgAdmin,
  orgId,
  roleId,
  sysAdmin,
  uploaded,
} from './user-admin-fixtures';

type Method = 'findByEmail' | 'create' | 'sendInvitation' | 'update' | 'remove' | 'linkFederatedIdentity';

/**
 * An identity provider in memory that counts what it did and fails on request: a failure either
 * before acting (`delivered: false`, like an error answer) or after acting (like a timeout that
 * hid the answer), which is what a crash in the middle of a call looks like.
 */
class FakeIdentity implements IdentityAdmin {
  accounts = new Map<string, AccountFields>();
  invitations: string[] = [];
  creates = 0;
  /** Updates and removals in the order they happened. */
  changes: string[] = [];
  private failures: Array<{ method: Method; after: boolean }> = [];
  /** Runs once the invitation went out, before the call returns (the user may be that quick). */
  afterInvitation: ((id: string) => Promise<void>) | null = null;

  failNext(method: Method, options: { afterActing?: boolean } = {}) {
    this.failures.push({ method, after: options.afterActing ?? false });
  }

  private async step<T>(method: Method, act: () => T): Promise<T> {
    const index = this.failures.findIndex((f) => f.method === method);
    const failure = index >= 0 ? this.failures.splice(index, 1)[0] : undefined;
    if (failure && !failure.after) throw new IdentityCallError(`${method}: HTTP 503`, 503, false);
    const result = act();
    if (failure) throw new IdentityCallError(`${method}: timeout`, null, 'unknown');
    return result;
  }

  findByEmail(email: string) {
    return this.step('findByEmail', () => {
      for (const [id, a] of this.accounts) if (a.email === email) return { id };
      return null;
    });
  }
  findByUsername(username: string) {
    // Every account of these tests has an e-mail, which is its username.
    return this.findByEmail(username);
  }
  create(fields: AccountFields) {
    return this.step('create', () => {
      this.creates++;
      const id = randomUUID();
      this.accounts.set(id, { ...fields });
      return { id };
    });
  }
  async sendInvitation(id: string) {
    const sent = this.invitations.length;
    try {
      await this.step('sendInvitation', () => {
        assert.ok(this.accounts.has(id), 'invitation to an existing account');
        this.invitations.push(this.accounts.get(id)!.email);
      });
    } finally {
      // Also when the answer is lost after the mail went out.
      if (this.invitations.length > sent) await this.afterInvitation?.(id);
    }
  }
  update(id: string, fields: AccountFields) {
    return this.step('update', () => {
      if (!this.accounts.has(id)) return false;
      this.changes.push(`update ${fields.email}`);
      this.accounts.set(id, { ...fields });
      return true;
    });
  }
  remove(id: string) {
    return this.step('remove', () => {
      this.changes.push(`remove ${this.accounts.get(id)?.email}`);
      return this.accounts.delete(id);
    });
  }
  /** Federated identity links: account id → provider alias → identity. */
  links = new Map<string, Map<string, string>>();
  linkFederatedIdentity(id: string, link: FederatedIdentityLink) {
    return this.step('linkFederatedIdentity', () => {
      if (!this.accounts.has(id)) return 'not_found' as const;
      const links = this.links.get(id) ?? new Map<string, string>();
      const existing = links.get(link.identityProvider);
      if (existing !== undefined) return existing === link.userId ? ('linked' as const) : ('conflict' as const);
      links.set(link.identityProvider, link.userId);
      this.links.set(id, links);
      return 'linked' as const;
    });
  }
}

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('identity provisioning through the outbox', () => {
  let t: TestApp;
  let identity: FakeIdentity;
  let license: number;
  let learnerRole: number;

  before(async () => {
    t = await buildTestApp();
    license = await createLicense(t.db, await orgId(t.db, 'Demo Hospital'), { seats: 100 });
    learnerRole = await roleId(t.db, 'learner');
  });
  after(() => t.close());
  beforeEach(() => {
    identity = new FakeIdentity();
  });

  // No waiting between attempts: each drain retries what failed before.
  const worker = ({ failedAfterAttempts }: { failedAfterAttempts?: number } = {}) => {
    const registry = createOutboxRegistry();
    registry.register(
      identityAccountKinds({ db: t.db, identityAdmin: identity, log: silent, failedAfterAttempts }),
    );
    return createOutboxWorker({ db: t.db, registry, log: silent, retryDelayMs: () => 0 });
  };

  async function addUsers(emails: string[]): Promise<string[]> {
    const file = await uploaded(t, orgAdmin.sub, csvOf(emails.map((e) => ['First', 'Last', e])));
    const res = await bulkAdd(t, orgAdmin.sub, { file, license, role: learnerRole });
    assert.equal(res.statusCode, 201, res.body);
    return res.json<BulkUserResult>().users.map((u) => u.id);
  }

  const statusOf = async (id: string) =>
    (
      await t.db.query<{ account_status: string; identity_sub: string | null }>(
        'select account_status, identity_sub from users where id = $1',
        [id],
      )
    ).rows[0];

  test('creates each account once, invites once, and records the account id', async () => {
    const [a, b] = await addUsers(['one@outbox.test', 'two@outbox.test']);
    const result = await worker().drain();
    assert.deepEqual(result, { done: 2, failed: 0 });
    assert.equal(identity.creates, 2);
    assert.deepEqual(identity.invitations.sort(), ['one@outbox.test', 'two@outbox.test']);
    for (const id of [a!, b!]) {
      const user = await statusOf(id);
      assert.equal(user?.account_status, 'invited');
      assert.ok(user?.identity_sub && identity.accounts.has(user.identity_sub));
    }
    // The user signs in with the provider's id as `sub`.
    const sub = (await statusOf(a!))!.identity_sub!;
    const whoami = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/whoami',
      headers: await headers(sub),
    });
    assert.equal(whoami.statusCode, 200, whoami.body);
    assert.equal(whoami.json<{ id: string }>().id, a);
    assert.deepEqual(await worker().drain(), { done: 0, failed: 0 }, 'nothing left to do');
  });

  test('a failing identity call is retried; an account made before a lost answer is not made twice', async () => {
    const [id] = await addUsers(['retry@outbox.test']);
    identity.failNext('create', { afterActing: true });
    identity.failNext('sendInvitation');
    const w = worker();
    assert.deepEqual(await w.runOnce(), { done: 0, failed: 1 }, 'create answered with a timeout');
    assert.equal(identity.creates, 1);
    assert.deepEqual(await w.runOnce(), { done: 0, failed: 1 }, 'invitation refused with 503');
    assert.deepEqual(await w.runOnce(), { done: 1, failed: 0 });
    assert.equal(identity.creates, 1, 'found by e-mail instead of created again');
    assert.equal(identity.accounts.size, 1);
    assert.deepEqual(identity.invitations, ['retry@outbox.test']);
    assert.equal((await statusOf(id!))?.account_status, 'invited');
    const row = await t.db.query<{ attempts: number; done: boolean }>(
      `select attempts, done_at is not null as done from outbox where key = $1`,
      [`user:${id}`],
    );
    assert.deepEqual(row.rows, [{ attempts: 3, done: true }]);
  });

  test('an invitation whose outcome is unknown is never sent a second time', async () => {
    const [id] = await addUsers(['once@outbox.test']);
    identity.failNext('sendInvitation', { afterActing: true });
    const w = worker();
    assert.deepEqual(await w.runOnce(), { done: 0, failed: 1 });
    assert.deepEqual(await w.drain(), { done: 1, failed: 0 });
    assert.deepEqual(identity.invitations, ['once@outbox.test']);
    const row = await t.db.query<{ last_error: string }>(
      `select last_error from outbox where key = $1`,
      [`user:${id}`],
    );
    assert.match(row.rows[0]!.last_error, /not resent/);
  });

  test('after repeated failures the account shows failed, and recovers when the provider does', async () => {
    const [id] = await addUsers(['flaky@outbox.test']);
    const w = worker();
    for (let i = 0; i < 3; i++) {
      identity.failNext('findByEmail');
      assert.deepEqual(await w.runOnce(), { done: 0, failed: 1 });
    }
    assert.equal((await statusOf(id!))?.account_status, 'failed');
    assert.deepEqual(await w.drain(), { done: 1, failed: 0 });
    assert.equal((await statusOf(id!))?.account_status, 'invited');
  });

  test('edit and delete follow the create in order; a user deleted before provisioning gets no account', async () => {
    const [kept] = await addUsers(['kept@outbox.test', 'gone@outbox.test']);
    await worker().drain();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${kept}`,
      headers: await headers(orgAdmin.sub),
      payload: {
        firstName: 'Renamed',
        lastName: 'Last',
        email: 'kept2@outbox.test',
        userRole: learnerRole,
      },
    });
    assert.equal(put.statusCode, 200, put.body);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${kept}`,
      headers: await headers(orgAdmin.sub),
    });
    assert.equal(del.statusCode, 204, del.body);
    await worker().drain();
    // The e-mail in the PUT is only pending (it needs its owner's consent): the account keeps
    // the old one.
    assert.deepEqual(identity.changes, ['update kept@outbox.test', 'remove kept@outbox.test']);
    assert.deepEqual(
      [...identity.accounts.values()].map((a) => a.email),
      ['gone@outbox.test'],
    );

    const [late] = await addUsers(['late@outbox.test']);
    const delLate = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${late}`,
      headers: await headers(orgAdmin.sub),
    });
    assert.equal(delLate.statusCode, 204);
    const creates = identity.creates;
    await worker().drain();
    assert.equal(identity.creates, creates, 'no account for a user deleted before provisioning');
    assert.ok(!identity.invitations.includes('late@outbox.test'));
  });
  const whoami = async (sub: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/user/whoami', headers: await headers(sub) });

  const activations = async (id: string) =>
    (
      await t.db.query<{
        actor_id: string;
        before: unknown;
        after: unknown;
        organisation_id: number;
      }>(
        `select actor_id::text as actor_id, before, after, organisation_id from audit_log
          where action = 'activate' and entity_id = $1`,
        [id],
      )
    ).rows;

  test('the first sign-in turns an invited account active, once, and records it', async () => {
    const [id] = await addUsers(['first@outbox.test']);
    await worker().drain();
    const sub = (await statusOf(id!))!.identity_sub!;
    assert.equal((await statusOf(id!))?.account_status, 'invited');

    // Several first requests at once (a page loads whoami, lookups, …): one change, one entry.
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => whoami(sub)));
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    assert.equal((await statusOf(id!))?.account_status, 'active');
    const entries = await activations(id!);
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.actor_id, id, 'the user activated their own account');
    assert.equal(entries[0]!.organisation_id, await orgId(t.db, 'Demo Hospital'));
    assert.deepEqual(entries[0]!.before, { accountStatus: 'invited' });
    assert.deepEqual(entries[0]!.after, { accountStatus: 'active' });

    assert.equal((await whoami(sub)).statusCode, 200);
    assert.equal((await activations(id!)).length, 1, 'later requests change nothing');
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${id}`,
      headers: await headers(orgAdmin.sub),
    });
    assert.equal(listed.json<{ accountStatus: string }>().accountStatus, 'active');
  });

  test('the user id as sub does not activate an account the provider made', async () => {
    const [id] = await addUsers(['notsub@outbox.test']);
    await worker().drain();
    assert.equal((await whoami(id!)).statusCode, 403);
    assert.equal((await statusOf(id!))?.account_status, 'invited');
  });

  test('a worker finishing after the first sign-in leaves the account active', async () => {
    const [id] = await addUsers(['quick@outbox.test']);
    // The user follows the link and signs in while the worker is still in the invitation call.
    let signedIn = 0;
    identity.afterInvitation = async (sub) => {
      const res = await whoami(sub);
      assert.equal(res.statusCode, 200, res.body);
      signedIn++;
    };
    assert.deepEqual(await worker().drain(), { done: 1, failed: 0 });
    assert.equal(signedIn, 1);
    assert.equal((await statusOf(id!))?.account_status, 'active');
    assert.equal((await activations(id!)).length, 1);
  });

  test('repeated failures after the first sign-in do not mark the account failed', async () => {
    const [id] = await addUsers(['lost@outbox.test']);
    // The invitation went out and the answer was lost: the user signs in meanwhile.
    identity.failNext('sendInvitation', { afterActing: true });
    identity.afterInvitation = async (sub) => {
      assert.equal((await whoami(sub)).statusCode, 200);
    };
    const w = worker({ failedAfterAttempts: 0 });
    assert.deepEqual(await w.runOnce(), { done: 0, failed: 1 });
    assert.equal((await statusOf(id!))?.account_status, 'active');
    assert.deepEqual(await w.drain(), { done: 1, failed: 0 });
    assert.equal((await statusOf(id!))?.account_status, 'active');
  });
  const resend = async (id: string, as = orgAdmin.sub) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/user/${id}/invitation`,
      headers: await headers(as),
    });
  const inviteItems = async (id: string) =>
    (
      await t.db.query<{ done: boolean; last_error: string | null }>(
        `select done_at is not null as done, last_error from outbox
          where key = $1 and kind = 'identity.send_invitation' order by id`,
        [`user:${id}`],
      )
    ).rows;

  test('resending an invitation sends it once more, once, and records who asked', async () => {
    const [id] = await addUsers(['again@outbox.test']);
    await worker().drain();
    assert.deepEqual(identity.invitations, ['again@outbox.test']);

    // A double click: both answer, one e-mail.
    const [first, second] = await Promise.all([resend(id!), resend(id!)]);
    assert.equal(first!.statusCode, 202, first!.body);
    assert.equal(second!.statusCode, 202, second!.body);
    const answers = [first!.json<InvitationResult>(), second!.json<InvitationResult>()];
    assert.deepEqual(answers.map((a) => a.queued).sort(), [false, true]);
    assert.equal(answers[0]!.queuedAt, answers[1]!.queuedAt);
    assert.equal((await inviteItems(id!)).length, 1);

    assert.deepEqual(await worker().drain(), { done: 1, failed: 0 });
    assert.deepEqual(identity.invitations, ['again@outbox.test', 'again@outbox.test']);
    assert.deepEqual(await inviteItems(id!), [{ done: true, last_error: null }]);
    assert.equal((await statusOf(id!))?.account_status, 'invited');

    // Within the resend interval a sent invitation answers too: no third e-mail.
    const later = await resend(id!);
    assert.equal(later.statusCode, 202);
    assert.equal(later.json<InvitationResult>().queued, false);
    assert.deepEqual(await worker().drain(), { done: 0, failed: 0 });
    assert.equal(identity.invitations.length, 2);

    const entries = await t.db.query<{ actor_email: string; after: unknown }>(
      `select actor_email, after from audit_log where action = 'invite' and entity_id = $1`,
      [id],
    );
    assert.deepEqual(entries.rows, [
      {
        actor_email: orgAdmin.email,
        after: { email: 'again@outbox.test', accountStatus: 'invited' },
      },
    ]);

    // Past the interval another one may go.
    await t.db.query(
      `update outbox set created_at = created_at - interval '11 minutes' where key = $1`,
      [`user:${id}`],
    );
    assert.equal((await resend(id!, sysAdmin.sub)).json<InvitationResult>().queued, true);
  });

  test('an active user, or one still being set up, is refused with the reason', async () => {
    const [id] = await addUsers(['refused@outbox.test']);
    const pending = await resend(id!);
    assert.equal(pending.statusCode, 400);
    assert.deepEqual(pending.json(), {
      non_field_errors: [USER_ADMIN_MESSAGES.invitationPending],
    });
    await worker().drain();
    const sub = (await statusOf(id!))!.identity_sub!;
    assert.equal((await whoami(sub)).statusCode, 200);
    const active = await resend(id!);
    assert.equal(active.statusCode, 400);
    assert.deepEqual(active.json(), {
      non_field_errors: [USER_ADMIN_MESSAGES.invitationAccepted],
    });
    assert.deepEqual(await inviteItems(id!), []);
  });

  test('a resent invitation is not sent once the user has signed in, nor twice on a lost answer', async () => {
    const [signsIn, lost] = await addUsers(['meanwhile@outbox.test', 'lostagain@outbox.test']);
    await worker().drain();
    assert.equal((await resend(signsIn!)).statusCode, 202);
    assert.equal((await resend(lost!)).statusCode, 202);
    assert.equal((await whoami((await statusOf(signsIn!))!.identity_sub!)).statusCode, 200);
    identity.failNext('sendInvitation', { afterActing: true });
    const w = worker();
    assert.deepEqual(await w.runOnce(), { done: 1, failed: 1 });
    assert.deepEqual(await w.drain(), { done: 1, failed: 0 });
    const count = (email: string) => identity.invitations.filter((e) => e === email).length;
    assert.equal(count('meanwhile@outbox.test'), 1, 'only the first invitation');
    assert.equal(count('lostagain@outbox.test'), 2, 'the resent one went out once');
    assert.match((await inviteItems(signsIn!))[0]!.last_error ?? '', /signed in/);
    assert.match((await inviteItems(lost!))[0]!.last_error ?? '', /not resent/);
  });
});
