import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '../../../../helper';
import { ltiLaunch } from '../../../../lti/lti-fixtures';
import { ROLES, type TestPlatform } from '../../../../lti/platform-fixtures';
import { createLtiRosterRepository } from '../../../../../src/repositories/lti-roster-repository';
import { nrpsClaim, rosterLaunch, rosterPlatform } from './roster-sync-fixtures';

const educator = account('educator', 'Demo Hospital');

/**
 * One sync per course at a time: a second instructor who presses "Sync now" while the first one's
 * sync is still queued is answered that sync's id — and must be able to follow it. (The auth
 * matrix met this as a flaky 404 whenever a sync of its course was still open.)
 */
describe('a roster sync shared by two instructors of one course', () => {
  let t: TestApp;
  let platform: TestPlatform;

  before(async () => {
    t = await buildTestApp();
    platform = await rosterPlatform(() => t, 'https://shared-roster.test', 'shared-client')();
  });
  after(async () => {
    await t.close();
  });

  /** The token subject of the portal user a platform user's launch created. */
  const userOf = async (sub: string) =>
    (
      await t.db.query<{ id: string }>(
        `select coalesce(u.identity_sub, u.id::text) as id
           from lti_user_links k join users u on u.id = k.user_id
          where k.issuer = $1 and k.platform_sub = $2`,
        [platform.issuer, sub],
      )
    ).rows[0]!.id;

  const launchAs = async (sub: string, roles: string[]) => {
    const to = await ltiLaunch(t.app, platform, {
      sub,
      // No address: the user is active at once (with one, they wait for their invitation).
      omit: ['email'],
      roles,
      claims: nrpsClaim(platform.issuer),
    });
    assert.equal(to.pathname, '/lti/launch', to.toString());
    return to.searchParams.get('launchId')!;
  };

  const get = async (id: string, userId: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/lti/roster-sync/${id}`,
      headers: await authHeader(userId),
    });

  test('the second instructor is answered the open sync and may read it; a learner of the course may not', async () => {
    const first = await rosterLaunch(t.app, platform);
    const courseId = (
      await t.db.query<{ course_id: number }>('select course_id from lti_launches where id = $1', [
        first,
      ])
    ).rows[0]!.course_id;
    // Queued without an outbox item: it stays open however fast the worker is.
    const open = randomUUID();
    await createLtiRosterRepository(t.db).insertSync(open, courseId, educator.sub);

    await launchAs('shared-second-teacher', [ROLES.instructor]);
    const second = await userOf('shared-second-teacher');
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lti/roster-sync',
      headers: { ...(await authHeader(second)), ...xsrfHeaders() },
      payload: { launchId: await launchAs('shared-second-teacher', [ROLES.instructor]) },
    });
    assert.equal(started.statusCode, 202, started.body);
    assert.equal(started.json<{ id: string }>().id, open);

    const read = await get(open, second);
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json<{ status: string }>().status, 'queued');

    // A learner launched into the same course is no one who could start a sync: unknown to them.
    await launchAs('shared-learner', [ROLES.learner]);
    const learner = await userOf('shared-learner');
    const refused = await get(open, learner);
    assert.ok([403, 404].includes(refused.statusCode), `${refused.statusCode} ${refused.body}`);
  });

  test('an instructor launched without an e-mail address makes an audited change: stored with no address, never a 500', async () => {
    const launchId = await launchAs('shared-teacher-no-address', [ROLES.instructor]);
    const teacher = await userOf('shared-teacher-no-address');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lti/course-grade-release',
      headers: { ...(await authHeader(teacher)), ...xsrfHeaders() },
      payload: { launchId, gradeRelease: 'after_review' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const audit = await t.db.query<{ actor_name: string; actor_email: string }>(
      `select actor_name, actor_email from audit_log
        where entity_type = 'lti_course'
          and actor_id = (select user_id from lti_user_links where platform_sub = $1)`,
      ['shared-teacher-no-address'],
    );
    assert.equal(audit.rows.length, 1);
    assert.equal(audit.rows[0]!.actor_email, '');
    assert.ok(audit.rows[0]!.actor_name.length > 0);
  });
});
