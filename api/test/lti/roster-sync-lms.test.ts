import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RunningLms } from '@portal/lms';
import type { LtiRosterSummary } from '@portal/contract';
import { account, type TestApp } from '../helper';
import { userHeaders } from '../routes/api/v1/simulator/session-fixtures';
import { runDailyRosterSync } from '../../src/services/lti/roster-sync-daily';
import { registerStandIn, runRosterSync, standInLaunch, startApiWithStandIn } from './lms-browser';

/**
 * The NRPS roster sync against the learning-platform stand-in (`@portal/lms`) over HTTP: the
 * instructor (stand-in user 102, Demo Hospital's educator) launches from the Demo course, whose
 * launches carry the NRPS claim; the sync reads its 120 members in pages of 50 with a token from
 * the stand-in's token endpoint, which checks our client assertion against the API's JWKS. The
 * stand-in's /test/nrps endpoints make members leave, turn inactive, and the platform fail.
 */

const educator = account('educator', 'Demo Hospital');
const orgAdmin = account('org admin', 'Demo Hospital');

describe('LTI roster sync (NRPS) against the learning-platform stand-in', () => {
  let t: TestApp;
  let lms: RunningLms;
  let org: number;

  before(async () => {
    ({ t, lms } = await startApiWithStandIn());
    org = (
      await t.db.query<{ id: number }>(`select id from organisations where name = 'Demo Hospital'`)
    ).rows[0]!.id;
    await registerStandIn(t.db, lms.url);
  });
  after(async () => {
    await t.close();
    await lms.close();
  });

  const nrps = async (path: string, method = 'POST', body?: unknown) => {
    const res = await fetch(`${lms.url}/test/nrps${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    assert.ok(res.ok, `${method} /test/nrps${path}: ${res.status}`);
  };

  /** Starts a sync with a fresh launch of the instructor's and waits for the worker. */
  const sync = async () => runRosterSync(t, await standInLaunch(lms.url, '102'), educator.sub);

  const counts = async () =>
    (
      await t.db.query<{ users: number; links: number; seats: number }>(
        `select (select count(*)::int from users where organisation_id = $1) as users,
                (select count(*)::int from lti_user_links where issuer = $2) as links,
                (select count(*)::int from license_block_users s
                   join license_blocks lb on lb.id = s.license_block_id
                  where lb.organisation_id = $1) as seats`,
        [org, lms.url],
      )
    ).rows[0]!;

  const userOf = async (sub: string) =>
    (
      await t.db.query<{ id: string; seats: number; active: boolean | null }>(
        `select k.user_id::text as id,
                (select count(*)::int from license_block_users s where s.user_id = k.user_id) as seats,
                (select m.active from lti_course_members m where m.user_id = k.user_id) as active
           from lti_user_links k where k.issuer = $1 and k.platform_sub = $2`,
        [lms.url, sub],
      )
    ).rows[0];

  /** Demo Hospital's current licences take no one more; `seats` more in a new one. */
  async function seatsLeft(seats: number) {
    await t.db.query(
      'update license_blocks set number_of_seats = seats_used where organisation_id = $1',
      [org],
    );
    await t.db.query(
      `insert into license_blocks (organisation_id, license_name, number_of_seats, start_date,
                                   expiry_date, duration_id)
       values ($1, 'Roster ' || $2, $2::integer, current_date - 1, current_date + 30,
               (select id from lookups where field = 'license_duration' and code = 'P1Y'))`,
      [org, seats],
    );
  }

  test('no seats: the members beyond the free seats are refused, nobody half-created', async () => {
    await seatsLeft(10);
    const before = await counts();
    const result = await sync();
    assert.equal(result.status, 'done', result.error);
    const after = await counts();
    assert.equal(result.added, 10);
    assert.equal(after.users - before.users, 10, 'exactly the seated members became users');
    assert.equal(after.seats - before.seats, 10);
    // Everyone linked holds a seat: a refused member left neither user nor link behind.
    const unseated = await t.db.query(
      `select 1 from lti_user_links k join users u on u.id = k.user_id
        where k.issuer = $1 and u.organisation_id = $2
          and not exists (select 1 from license_block_users s where s.user_id = u.id)`,
      [lms.url, org],
    );
    assert.equal(unseated.rowCount, 0);
    const noSeat = result.refused.filter((r) => r.reason === 'no_seat');
    assert.ok(noSeat.length > 70, `no_seat refusals: ${noSeat.length}`);
    // A platform user is issuer + sub: members without e-mail are added (or refused for a seat) too.
    assert.ok(!result.refused.some((r) => r.reason === 'no_email'));
    const refusedNames = noSeat.map((r) => r.name);
    const made = await t.db.query(
      `select 1 from users where trim(first_name || ' ' || last_name) = any($1::text[])`,
      [refusedNames],
    );
    assert.equal(made.rowCount, 0, 'no refused member exists as a user');
  });

  test('paging: all 120 members of the three pages are read; each counted once', async () => {
    await seatsLeft(200);
    const result = await sync();
    assert.equal(result.status, 'done', result.error);
    // The members the first test seated are unchanged now; the rest are added or refused: only
    // the 5 whose e-mail is another organisation's account are refused; the 15 active members
    // without e-mail are users of their own (a platform user is issuer + sub).
    const refusedBy = (reason: string) => result.refused.filter((r) => r.reason === reason).length;
    assert.equal(refusedBy('no_email'), 0);
    assert.equal(refusedBy('email_other_organisation'), 5);
    // The stand-in's registration verifies addresses: a member whose e-mail is one of Demo
    // Hospital's accounts is linked to it, as their launch would be, never refused.
    assert.equal(refusedBy('email_unverified_platform'), 0);
    assert.equal(refusedBy('no_seat'), 0);
    assert.equal(result.added + result.reactivated + result.unchanged + result.refused.length, 120);
    assert.equal(result.deactivated, 0);
    assert.equal(result.added, 98, '108 new members in all, 10 of them by the first sync');
    // Every active member with an e-mail of no portal account, and every one without an e-mail
    // (2013: only user_id, status and roles), is a user with a seat now.
    for (const sub of ['106', '2001', '2013', '2051', '2111']) {
      const user = await userOf(sub);
      assert.ok(user && user.seats === 1 && user.active, `member ${sub}: ${JSON.stringify(user)}`);
    }
    // An inactive member never launched: not made a user.
    assert.equal(await userOf('2018'), undefined);
    // The instructors among them are educators.
    const role = await t.db.query<{ name: string }>(
      `select r.name from lti_user_links k join users u on u.id = k.user_id
         join roles r on r.id = u.role_id where k.issuer = $1 and k.platform_sub = '2006'`,
      [lms.url],
    );
    assert.equal(role.rows[0]?.name, 'educator');
    // The launch page's summary counts the course's active learners.
    const launchId = await standInLaunch(lms.url, '102');
    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/v1/lti/roster-sync/launch/${launchId}`,
      headers: await userHeaders(educator.sub),
    });
    assert.equal(summary.statusCode, 200, summary.body);
    const body = summary.json<LtiRosterSummary>();
    const learners = await t.db.query<{ n: number }>(
      `select count(*)::int as n from lti_course_members m join lti_user_links k on k.user_id = m.user_id
        join users u on u.id = m.user_id join roles r on r.id = u.role_id
        where k.issuer = $1 and m.active and r.name = 'learner'`,
      [lms.url],
    );
    assert.equal(body.learners, learners.rows[0]!.n);
    assert.ok(body.learners > 80, `learners: ${body.learners}`);
    assert.equal(body.courseTitle, 'Demo course');
    assert.ok(body.lastSyncedAt);
    assert.equal(body.lastSync?.id, result.id);
  });

  test('leavers: a member who left and one turned inactive lose their seats; back again: reactivated', async () => {
    await nrps('/members/2002', 'DELETE');
    await nrps('/members/2003', 'PUT', { status: 'Inactive' });
    const before = await counts();
    const result = await sync();
    assert.equal(result.status, 'done', result.error);
    assert.equal(result.deactivated, 2);
    assert.equal(result.added, 0);
    for (const sub of ['2002', '2003']) {
      const user = await userOf(sub);
      assert.deepEqual({ seats: user?.seats, active: user?.active }, { seats: 0, active: false });
    }
    const after = await counts();
    assert.equal(after.users, before.users, 'users are kept (their reports stay)');
    assert.equal(after.seats, before.seats - 2);
    const audit = await t.db.query<{ entity_type: string; action: string; actor_id: string }>(
      `select entity_type, action, actor_id::text as actor_id from audit_log
        where entity_id like '%' || $1 order by id`,
      [(await userOf('2002'))!.id],
    );
    assert.deepEqual(
      audit.rows.slice(-2).map((r) => [r.entity_type, r.action, r.actor_id]),
      [
        ['license_block_user', 'unassign', educator.sub],
        ['user', 'update', educator.sub],
      ],
    );
    // The same again changes nothing.
    const again = await sync();
    assert.equal(again.deactivated, 0);
    // Back in the course: both reactivated with a seat.
    await nrps('/members/2003', 'PUT', { status: 'Active' });
    await nrps('/members/2002', 'PUT', { status: 'Active' });
    const back = await sync();
    assert.equal(back.reactivated, 2);
    assert.equal(back.added, 0);
    assert.equal((await userOf('2002'))?.seats, 1);
  });

  test('token refused: the sync fails with a clear error and changes nothing', async () => {
    await nrps('/members/2004', 'DELETE');
    await nrps('/faults', 'POST', { refuseTokens: true });
    try {
      const before = await counts();
      const result = await sync();
      assert.equal(result.status, 'failed');
      assert.match(result.error ?? '', /refused an access token.*HTTP 400/);
      assert.deepEqual(await counts(), before);
      assert.equal((await userOf('2004'))?.active, true, 'the leaver is not let go');
    } finally {
      await nrps('/faults', 'POST', { refuseTokens: false });
    }
  });

  test('platform down: the sync fails with a clear error and changes nothing', async () => {
    await nrps('/faults', 'POST', { down: true });
    try {
      const before = await counts();
      const result = await sync();
      assert.equal(result.status, 'failed');
      assert.match(result.error ?? '', /not available.*HTTP 503/);
      assert.deepEqual(await counts(), before);
    } finally {
      await nrps('/faults', 'POST', { down: false });
    }
    // Up again: the leaver of the previous test goes now.
    const result = await sync();
    assert.equal(result.status, 'done', result.error);
    assert.equal(result.deactivated, 1);
  });

  test("the sync is seen by its instructor and the organisation's admin, no one else", async () => {
    const result = await sync();
    const get = async (sub: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/lti/roster-sync/${result.id}`,
          headers: await userHeaders(sub),
        })
      ).statusCode;
    assert.equal(await get(orgAdmin.sub), 200);
    assert.equal(await get(account('sys admin').sub), 200);
    assert.equal(await get(account('learner', 'Other College').sub), 403);
    // An administrator of users of another organisation.
    const otherAdmin = randomUUID();
    await t.db.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id)
       values ($1, 'roster.other.admin@other.test', 'Otto', 'Admin',
               (select id from organisations where name = 'Other College'),
               (select id from roles where name = 'org admin'))`,
      [otherAdmin],
    );
    assert.equal(await get(otherAdmin), 404);
  });

  test('refusals name the field: a learner’s launch, an unknown launch, a malformed id', async () => {
    const learnerLaunch = await standInLaunch(lms.url, '101');
    const post = async (sub: string, launchId: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/lti/roster-sync',
        headers: await userHeaders(sub),
        payload: { launchId },
      });
    // The learner holds no permission for it at all; an educator with a learner's launch id is
    // not its owner.
    assert.equal(
      (await post(account('learner', 'Demo Hospital').sub, learnerLaunch)).statusCode,
      403,
    );
    assert.equal((await post(educator.sub, learnerLaunch)).statusCode, 404);
    const bad = await post(educator.sub, 'not-a-uuid');
    assert.equal(bad.statusCode, 400);
    assert.ok(bad.json<Record<string, unknown>>().launchId, bad.body);
    // An old launch must be opened again.
    const old = await standInLaunch(lms.url, '102');
    await t.db.query(
      `update lti_launches set created_at = now() - interval '25 hours' where id = $1`,
      [old],
    );
    const expired = await post(educator.sub, old);
    assert.equal(expired.statusCode, 400);
    assert.match(String(expired.json<{ launchId: string[] }>().launchId), /older than a day/);
  });

  test('the daily job queues a sync of every course launched from in the last 30 days, once a day', async () => {
    const now = new Date(Date.now() + 2 * 86_400_000);
    const run = await runDailyRosterSync(t.db, now);
    assert.equal(run.ran, true);
    assert.equal(run.ran && run.result.length, 1);
    const again = await runDailyRosterSync(t.db, now);
    assert.deepEqual(again, { ran: false, day: run.day, reason: 'done' });
    t.app.outboxWorker.kick();
    await t.app.outboxWorker.idle();
    const sync = await t.db.query<{ status: string; requested_by: string | null }>(
      'select status, requested_by::text as requested_by from lti_roster_syncs where id = $1',
      [run.ran ? run.result[0] : ''],
    );
    assert.deepEqual(sync.rows[0], { status: 'done', requested_by: null });
    // A course last launched from more than 30 days ago is left alone.
    await t.db.query(`update lti_courses set last_launch_at = now() - interval '31 days'`);
    const later = await runDailyRosterSync(t.db, new Date(now.getTime() + 86_400_000));
    assert.deepEqual(later.ran && later.result, []);
  });
});
