import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../helper';
import { LTI_CLAIM } from '../../../src/lti/validate-launch';
import { createTestPlatform, serveJwks, type TestPlatform } from '../../lti/platform-fixtures';
import { ltiLaunch, registerPlatform } from '../../lti/lti-fixtures';
import { learner, otherLearner } from '../api/v1/simulator/session-fixtures';

/**
 * Who a launch is (issue #22 point 3): a platform user is its issuer + sub, a launch without
 * e-mail or names still makes a portal user, and a launch's e-mail reaches an existing portal
 * account only through a registration an administrator marked "platform verifies e-mail
 * addresses". Real validator, real database, demo data.
 */
describe('LTI launch: linking the platform user to a portal user', () => {
  let t: TestApp;
  let unverified: TestPlatform;
  let verifying: TestPlatform;
  let jwks: Awaited<ReturnType<typeof serveJwks>>;
  let unverifiedId: number;

  before(async () => {
    t = await buildTestApp();
    unverified = await createTestPlatform('https://unverified-lms.test', 'portal');
    verifying = await createTestPlatform('https://verifying-lms.test', 'portal');
    jwks = await serveJwks(() => [unverified.publicJwk, verifying.publicJwk]);
    unverifiedId = await registerPlatform(t.db, unverified, jwks.url, 'Demo Hospital', {
      verifiesEmail: false,
    });
    await registerPlatform(t.db, verifying, jwks.url, 'Demo Hospital', { verifiesEmail: true });
  });
  after(async () => {
    await t.close();
    await jwks.close();
  });

  const one = async <T>(sql: string, params: unknown[] = []) =>
    (await t.db.query<T & Record<string, unknown>>(sql, params)).rows[0];
  const userOfLaunch = async (to: URL) =>
    (
      await one<{ user_id: string }>('select user_id::text from lti_launches where id = $1', [
        to.searchParams.get('launchId'),
      ])
    )?.user_id;
  const countsOf = (email: string) =>
    one<{ users: number; outbox: number }>(
      `select (select count(*)::int from users where lower(email) = lower($1)) as users,
              (select count(*)::int from outbox where lower(payload->>'email') = lower($1)) as outbox`,
      [email],
    );
  const linkOf = (issuer: string, sub: string) =>
    one<{ user_id: string }>(
      'select user_id::text from lti_user_links where issuer = $1 and platform_sub = $2',
      [issuer, sub],
    );
  /** No e-mail, no name claims: what the certification suite sends. */
  const anonymous = { omit: ['email', 'given_name', 'family_name', 'name'] };

  test('without the mark, an existing account’s e-mail is refused with the reason the page explains', async () => {
    const before = await countsOf(learner.email);
    for (const email of [learner.email, learner.email.toUpperCase()]) {
      const to = await ltiLaunch(t.app, unverified, { sub: `takeover-${email}`, email });
      assert.equal(
        to.toString(),
        'http://localhost:8080/lti/error?error=USER_NOT_LINKED&reason=email_unverified_platform',
      );
      assert.equal(await linkOf(unverified.issuer, `takeover-${email}`), undefined, 'not linked');
    }
    assert.deepEqual(await countsOf(learner.email), before, 'no second account, nothing queued');
    const launches = await one<{ n: number }>(
      'select count(*)::int as n from lti_launches where platform_id = $1',
      [unverifiedId],
    );
    assert.equal(launches?.n, 0);
  });

  test('without the mark, an account already linked by issuer + sub launches, whatever e-mail comes', async () => {
    await t.db.query(
      'insert into lti_user_links (issuer, platform_sub, user_id) values ($1, $2, $3)',
      [unverified.issuer, 'linked-before', learner.sub],
    );
    const to = await ltiLaunch(t.app, unverified, { sub: 'linked-before', email: learner.email });
    assert.equal(to.pathname, '/lti/launch');
    assert.equal(await userOfLaunch(to), learner.sub);
    const other = await ltiLaunch(t.app, unverified, { sub: 'linked-before', ...anonymous });
    assert.equal(await userOfLaunch(other), learner.sub, 'issuer + sub alone identify the user');
  });

  test('with the mark, the e-mail links the existing account of the organisation from now on', async () => {
    const before = await countsOf(learner.email);
    const to = await ltiLaunch(t.app, verifying, { sub: 'lena-at-verifying', email: learner.email });
    assert.equal(to.pathname, '/lti/launch');
    assert.equal(await userOfLaunch(to), learner.sub);
    assert.deepEqual(await linkOf(verifying.issuer, 'lena-at-verifying'), { user_id: learner.sub });
    assert.deepEqual(await countsOf(learner.email), before, 'no new account');
  });

  test("another organisation's e-mail is refused with or without the mark", async () => {
    for (const platform of [unverified, verifying]) {
      const to = await ltiLaunch(t.app, platform, { sub: 'other-org', email: otherLearner.email });
      assert.equal(to.toString(), 'http://localhost:8080/lti/error?error=USER_NOT_LINKED');
      assert.equal(await linkOf(platform.issuer, 'other-org'), undefined);
    }
  });

  test('a new e-mail makes a new user with an identity account, with or without the mark', async () => {
    const email = 'new.learner@unverified-lms.test';
    const to = await ltiLaunch(t.app, unverified, { sub: 'new-learner', email });
    assert.equal(to.pathname, '/lti/launch');
    const user = await one<{ id: string; first_name: string; account_status: string }>(
      'select id::text, first_name, account_status from users where email = $1',
      [email],
    );
    assert.equal(user?.id, await userOfLaunch(to));
    assert.equal(user?.first_name, 'Lena');
    assert.equal(user?.account_status, 'provisioning');
    assert.deepEqual(await countsOf(email), { users: 1, outbox: 1 });
  });

  test('no e-mail and no names: a user anyway, with a seat, and an identity account without e-mail', async () => {
    const outboxBefore = await one<{ n: number }>('select coalesce(max(id), 0)::int as n from outbox');
    const to = await ltiLaunch(t.app, unverified, { sub: 'cert-learner-1', ...anonymous });
    assert.equal(to.pathname, '/lti/launch', to.toString());
    const userId = await userOfLaunch(to);
    const user = await one<{
      email: string | null;
      first_name: string;
      last_name: string;
      account_status: string;
      role: string;
      seats: number;
    }>(
      `select u.email, u.first_name, u.last_name, u.account_status, r.name as role,
              (select count(*)::int from license_block_users s where s.user_id = u.id) as seats
         from users u join roles r on r.id = u.role_id where u.id = $1`,
      [userId],
    );
    assert.deepEqual(user, {
      email: null,
      first_name: '',
      last_name: '',
      account_status: 'active',
      role: 'learner',
      seats: 1,
    });
    // Its identity account (issue #22 point 1: a launch is a sign-in) is created without e-mail
    // (username lti-<id>) and without a password to set; no invitation goes out.
    const queued = await t.db.query<{ kind: string; payload: Record<string, unknown> }>(
      'select kind, payload from outbox where id > $1 order by id',
      [outboxBefore?.n ?? 0],
    );
    assert.deepEqual(
      queued.rows.map((r) => r.kind),
      ['identity.create_user'],
    );
    assert.equal(queued.rows[0]?.payload.email, null);
    assert.equal(queued.rows[0]?.payload.launched, true);
    const audit = await one<{ actor_email: string; after: Record<string, unknown> }>(
      `select actor_email, after from audit_log
        where entity_type = 'user' and entity_id = $1 and action = 'create'`,
      [userId],
    );
    assert.equal(audit?.actor_email, '');
    assert.equal(audit?.after.ltiSub, 'cert-learner-1');
    assert.equal(audit?.after.email, null);

    // The same platform user again, now with an e-mail and names: still that user.
    const again = await ltiLaunch(t.app, unverified, {
      sub: 'cert-learner-1',
      email: 'later@unverified-lms.test',
    });
    assert.equal(await userOfLaunch(again), userId);
  });

  test('two users without e-mail live side by side; `name` alone gives the names', async () => {
    const first = await ltiLaunch(t.app, unverified, {
      sub: 'cert-learner-2',
      omit: ['email', 'given_name', 'family_name'],
      claims: { name: 'Ada Lovelace King' },
    });
    const second = await ltiLaunch(t.app, unverified, {
      sub: 'cert-instructor-2',
      ...anonymous,
      roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor'],
    });
    const rows = await t.db.query<{ first_name: string; last_name: string; role: string }>(
      `select u.first_name, u.last_name, r.name as role
         from users u join roles r on r.id = u.role_id where u.id = any($1::uuid[])
        order by u.first_name desc`,
      [[await userOfLaunch(first), await userOfLaunch(second)]],
    );
    assert.deepEqual(rows.rows, [
      { first_name: 'Ada', last_name: 'Lovelace King', role: 'learner' },
      { first_name: '', last_name: '', role: 'educator' },
    ]);
  });

  test('a malformed e-mail counts as none rather than refusing the launch', async () => {
    const to = await ltiLaunch(t.app, unverified, {
      sub: 'cert-learner-3',
      claims: { email: 'not-an-address', [`${LTI_CLAIM}roles`]: [] },
    });
    assert.equal(to.pathname, '/lti/launch');
    const user = await one<{ email: string | null }>('select email from users where id = $1', [
      await userOfLaunch(to),
    ]);
    assert.equal(user?.email, null);
  });
});
