import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type {
  AdminUser,
  EmailChangePreview,
  EmailChangeRefusal,
  PagedResult,
} from '@portal/contract';
import type { IdentityApp } from '@portal/identity/src/app';
import type { App } from '../../../../../src/app';
import { buildTestApp, type TestApp } from '../../../../helper';
import { startIdentityStack, type IdentityStack } from '../../../../identity-stack';
import { count, headers, orgAdmin, orgId, otherLearner, roleId } from './user-admin-fixtures';

/**
 * Issue #20 point 3: an administrator's new e-mail for a user needs the new address's consent.
 * Against the real bundled identity provider (in process) and the API's development outbox.
 */
describe('e-mail changes need the new address’s consent', () => {
  let identity: IdentityApp;
  let database: TestApp;
  let app: App;
  let demo: number;
  let learnerRole: number;

  before(async () => {
    database = await startIdentityStack();
    ({ identity, app } = database as IdentityStack);
    demo = await orgId(database.db, 'Demo Hospital');
    learnerRole = await roleId(database.db, 'learner');
  });
  after(() => database?.close());

  /** A signed-in Demo Hospital learner whose account's e-mail is verified (they set a password). */
  async function activeUser(email: string, language = 'en') {
    const account = identity.users.create({
      email,
      firstName: 'Mara',
      lastName: 'Example',
      emailVerified: true,
    });
    const id = randomUUID();
    await database.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id, language,
                          account_status, identity_sub)
       values ($1, $2, 'Mara', 'Example', $3, $4, $5, 'active', $6)`,
      [id, email, demo, learnerRole, language, account.id],
    );
    return { id, sub: account.id };
  }

  const put = async (id: string, email: string, as = orgAdmin.sub) =>
    app.inject({
      method: 'PUT',
      url: `/api/v1/user/${id}`,
      headers: await headers(as),
      payload: { firstName: 'Mara', lastName: 'Example', email, userRole: learnerRole },
    });

  const post = (path: 'lookup' | 'confirm', token: string) =>
    app.inject({ method: 'POST', url: `/api/v1/email-change/${path}`, payload: { token } });

  const mailsTo = (to: string) => app.mailer!.outbox!.list().filter((m) => m.to === to);

  /** The token of the newest confirmation link sent to `to`. */
  function tokenSentTo(to: string): string {
    const mail = mailsTo(to).find((m) => m.text.includes('#token='));
    assert.ok(mail, `a confirmation mail to ${to}`);
    const token = /\/confirm-email#token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    assert.ok(token, mail.text);
    return token;
  }

  async function usersEmail(id: string) {
    const res = await database.db.query<{ email: string }>(
      'select email from users where id = $1',
      [id],
    );
    return res.rows[0]?.email;
  }

  /** Runs the outbox worker until the user's identity items are done. */
  async function provisioned(id: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      await app.outboxWorker.idle();
      const open = await count(database.db, 'outbox where key = $1 and done_at is null', [
        `user:${id}`,
      ]);
      if (open === 0) return;
      assert.ok(Date.now() < deadline, 'identity items still open after 10 s');
      app.outboxWorker.kick();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('a change is only pending: mails to both addresses, nothing changes before the link is used', async () => {
    const user = await activeUser('pending.old@example.test');
    const res = await put(user.id, 'Pending.New@Example.test');
    assert.equal(res.statusCode, 200, res.body);
    const answered = res.json<AdminUser>();
    assert.equal(answered.email, 'pending.old@example.test');
    assert.equal(answered.pendingEmail, 'pending.new@example.test');

    // The portal and the identity account keep the old address.
    assert.equal(await usersEmail(user.id), 'pending.old@example.test');
    await provisioned(user.id);
    assert.equal(identity.users.get(user.sub)?.email, 'pending.old@example.test');
    assert.equal(identity.users.get(user.sub)?.emailVerified, true);
    assert.equal(
      await count(database.db, `outbox where key = $1 and payload->>'email' = $2`, [
        `user:${user.id}`,
        'pending.new@example.test',
      ]),
      0,
    );

    // The new address gets the link, the old one a notice naming the new address (no link).
    const token = tokenSentTo('pending.new@example.test');
    assert.equal(token.length, 43);
    const [notice] = mailsTo('pending.old@example.test');
    assert.ok(notice, 'a notice to the old address');
    assert.match(notice.text, /pending\.new@example\.test/);
    assert.doesNotMatch(notice.text, /token=/);
    // Only the hash is stored.
    assert.equal(
      await count(database.db, `email_changes where encode(token_hash, 'escape') like $1`, [
        `%${token}%`,
      ]),
      0,
    );

    // The admin screens see it: the user and the organisation's list.
    const one = await app.inject({
      method: 'GET',
      url: `/api/v1/user/${user.id}`,
      headers: await headers(orgAdmin.sub),
    });
    assert.equal(one.json<AdminUser>().pendingEmail, 'pending.new@example.test');
    const list = await app.inject({
      method: 'GET',
      url: `/api/v1/organisation/${demo}/user?filter=pending.old`,
      headers: await headers(orgAdmin.sub),
    });
    assert.deepEqual(
      list.json<PagedResult<AdminUser>>().results.map((u) => [u.email, u.pendingEmail]),
      [['pending.old@example.test', 'pending.new@example.test']],
    );
    assert.equal(
      await count(
        database.db,
        `audit_log where entity_id = $1 and action = 'request_email_change'`,
        [user.id],
      ),
      1,
    );
  });

  test('the link: looking does not use it, confirming does once; the account is updated and verified only then', async () => {
    // An account whose address nobody confirmed yet, e.g. one made by the portal and not set up.
    const user = await activeUser('confirm.old@example.test');
    identity.users.update(user.sub, { emailVerified: false });
    assert.equal((await put(user.id, 'confirm.new@example.test')).statusCode, 200);
    const token = tokenSentTo('confirm.new@example.test');

    for (let i = 0; i < 2; i++) {
      const looked = await post('lookup', token);
      assert.equal(looked.statusCode, 200, looked.body);
      assert.equal(looked.json<EmailChangePreview>().email, 'confirm.new@example.test');
    }
    // A GET (what a mail scanner does with a link) is no way to confirm.
    const viaGet = await app.inject({
      method: 'GET',
      url: `/api/v1/email-change/confirm?token=${token}`,
    });
    assert.equal(viaGet.statusCode, 404);
    assert.equal(await usersEmail(user.id), 'confirm.old@example.test');

    const confirmed = await post('confirm', token);
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.deepEqual(confirmed.json(), { email: 'confirm.new@example.test' });
    assert.equal(await usersEmail(user.id), 'confirm.new@example.test');
    await provisioned(user.id);
    const account = identity.users.get(user.sub);
    assert.equal(account?.email, 'confirm.new@example.test');
    assert.equal(account?.emailVerified, true);
    assert.equal(
      await count(
        database.db,
        `audit_log where entity_id = $1 and action = 'confirm_email_change' and actor_id = $1::uuid`,
        [user.id],
      ),
      1,
    );

    // Single use.
    const again = await post('confirm', token);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json<EmailChangeRefusal>().code, 'used');
    assert.equal((await post('lookup', token)).json<EmailChangeRefusal>().code, 'used');
  });

  test('an expired link changes nothing and is no longer shown as pending', async () => {
    const user = await activeUser('expire.old@example.test');
    assert.equal((await put(user.id, 'expire.new@example.test')).statusCode, 200);
    const token = tokenSentTo('expire.new@example.test');
    await database.db.query(
      `update email_changes set expires_at = now() - interval '1 second' where user_id = $1`,
      [user.id],
    );
    const res = await post('confirm', token);
    assert.equal(res.statusCode, 410);
    assert.equal(res.json<EmailChangeRefusal>().code, 'expired');
    assert.equal(await usersEmail(user.id), 'expire.old@example.test');
    const one = await app.inject({
      method: 'GET',
      url: `/api/v1/user/${user.id}`,
      headers: await headers(orgAdmin.sub),
    });
    assert.equal(one.json<AdminUser>().pendingEmail, null);
  });

  test('a second change replaces the first; unknown and malformed tokens are invalid', async () => {
    const user = await activeUser('twice.old@example.test');
    assert.equal((await put(user.id, 'twice.first@example.test')).statusCode, 200);
    const first = tokenSentTo('twice.first@example.test');
    assert.equal((await put(user.id, 'twice.second@example.test')).statusCode, 200);
    const second = tokenSentTo('twice.second@example.test');
    const stale = await post('confirm', first);
    assert.equal(stale.statusCode, 404);
    assert.equal(stale.json<EmailChangeRefusal>().code, 'invalid');
    assert.equal((await post('confirm', 'x'.repeat(43))).statusCode, 404);
    assert.equal((await post('confirm', '')).statusCode, 404);
    assert.equal((await post('confirm', 'x'.repeat(500))).statusCode, 400);
    assert.equal((await post('confirm', second)).statusCode, 200);
    assert.equal(await usersEmail(user.id), 'twice.second@example.test');
  });

  test('an administrator cancels a pending change; its link stops working', async () => {
    const user = await activeUser('cancel.old@example.test');
    assert.equal((await put(user.id, 'cancel.new@example.test')).statusCode, 200);
    const token = tokenSentTo('cancel.new@example.test');
    const cancel = async (as = orgAdmin.sub) =>
      app.inject({
        method: 'DELETE',
        url: `/api/v1/user/${user.id}/email-change`,
        headers: await headers(as),
      });
    // Not another organisation's administrator (nor a learner).
    assert.equal((await cancel(otherLearner.sub)).statusCode, 403);
    assert.equal((await cancel()).statusCode, 204);
    assert.equal((await cancel()).statusCode, 404);
    assert.equal((await post('confirm', token)).statusCode, 404);
    assert.equal(await usersEmail(user.id), 'cancel.old@example.test');
    assert.equal(
      await count(
        database.db,
        `audit_log where entity_id = $1 and action = 'cancel_email_change'`,
        [user.id],
      ),
      1,
    );
  });

  test('concurrent changes: one pending change remains, and only its link works', async () => {
    const user = await activeUser('race.old@example.test');
    const answers = await Promise.all(
      ['race.a@example.test', 'race.b@example.test', 'race.c@example.test'].map((email) =>
        put(user.id, email),
      ),
    );
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      [200, 200, 200],
    );
    assert.equal(await count(database.db, 'email_changes where user_id = $1', [user.id]), 1);
    const results = await Promise.all(
      ['race.a@example.test', 'race.b@example.test', 'race.c@example.test'].map(
        async (to) => (await post('confirm', tokenSentTo(to))).statusCode,
      ),
    );
    assert.deepEqual(results.toSorted(), [200, 404, 404]);
    const pending = await database.db.query<{ new_email: string }>(
      'select new_email from email_changes where user_id = $1',
      [user.id],
    );
    assert.equal(await usersEmail(user.id), pending.rows[0]?.new_email);
  });

  test('an address another user took meanwhile cannot be confirmed', async () => {
    const user = await activeUser('taken.old@example.test');
    assert.equal((await put(user.id, 'taken.new@example.test')).statusCode, 200);
    const token = tokenSentTo('taken.new@example.test');
    await activeUser('taken.new@example.test');
    const res = await post('confirm', token);
    assert.equal(res.statusCode, 409);
    assert.equal(res.json<EmailChangeRefusal>().code, 'taken');
    assert.equal(await usersEmail(user.id), 'taken.old@example.test');
    // And an address in use is refused up front.
    const refused = await put(user.id, 'taken.new@example.test');
    assert.equal(refused.statusCode, 400);
  });

  test('the mails are in the user’s language', async () => {
    const user = await activeUser('sprache.alt@example.test', 'de');
    assert.equal((await put(user.id, 'sprache.neu@example.test')).statusCode, 200);
    assert.match(mailsTo('sprache.neu@example.test')[0]!.subject, /bestätigen/);
    assert.match(mailsTo('sprache.alt@example.test')[0]!.text, /Noch hat sich nichts geändert/);
  });

  test('accounts the portal creates are not verified; a changed address without confirmation is not either', async () => {
    // The portal's create: no verified flag until the invitation's link is used.
    const created = await app.identityAdmin!.create({
      email: 'fresh.account@example.test',
      firstName: 'Fresh',
      lastName: 'Account',
    });
    assert.equal(identity.users.get(created.id)?.emailVerified, false);
    // A verified account whose address is changed through the admin API without the flag.
    const user = await activeUser('direct.old@example.test');
    await app.identityAdmin!.update(user.sub, {
      email: 'direct.new@example.test',
      firstName: 'Mara',
      lastName: 'Example',
    });
    assert.equal(identity.users.get(user.sub)?.emailVerified, false);
  });
});

describe('e-mail changes when the mails cannot be sent', () => {
  test('an unreachable mail server: 503, the change is dropped, other changes stay', async () => {
    const t = await buildTestApp({
      mail: { from: 'portal@example.test', productName: 'Portal', smtpUrl: 'smtp://127.0.0.1:1' },
    });
    try {
      const demo = await orgId(t.db, 'Demo Hospital');
      const id = randomUUID();
      await t.db.query(
        `insert into users (id, email, first_name, last_name, organisation_id, role_id)
         values ($1, 'nomail.old@example.test', 'No', 'Mail', $2, $3)`,
        [id, demo, await roleId(t.db, 'learner')],
      );
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${id}`,
        headers: await headers(orgAdmin.sub),
        payload: {
          firstName: 'Renamed',
          lastName: 'Mail',
          email: 'nomail.new@example.test',
          userRole: await roleId(t.db, 'learner'),
        },
      });
      assert.equal(res.statusCode, 503, res.body);
      assert.ok(res.json<{ email: string[] }>().email[0]);
      assert.equal(await count(t.db, 'email_changes where user_id = $1', [id]), 0);
      assert.equal(await count(t.db, `users where id = $1 and first_name = 'Renamed'`, [id]), 1);
    } finally {
      await t.close();
    }
  });

  test('no mail configured at all: the e-mail field says why, nothing is saved', async () => {
    const t = await buildTestApp({ mail: null });
    try {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${otherLearner.sub}`,
        headers: await headers(orgAdmin.sub),
        payload: { firstName: 'X', lastName: 'Y', email: 'z@example.test', userRole: 1 },
      });
      // Another organisation's user: 404 before anything else.
      assert.equal(res.statusCode, 404);
      const demo = await orgId(t.db, 'Demo Hospital');
      const id = randomUUID();
      await t.db.query(
        `insert into users (id, email, first_name, last_name, organisation_id, role_id)
         values ($1, 'nomailer.old@example.test', 'No', 'Mailer', $2, $3)`,
        [id, demo, await roleId(t.db, 'learner')],
      );
      const refused = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${id}`,
        headers: await headers(orgAdmin.sub),
        payload: {
          firstName: 'Renamed',
          lastName: 'Mailer',
          email: 'nomailer.new@example.test',
          userRole: await roleId(t.db, 'learner'),
        },
      });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.json<{ email: string[] }>().email[0]!, /no mail server/);
      assert.equal(await count(t.db, `users where id = $1 and first_name = 'Renamed'`, [id]), 0);
    } finally {
      await t.close();
    }
  });
});
