import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { JSONWebKeySet } from 'jose';
import { buildTestApp, type TestApp } from '../helper';
import {
  AGS_SCOPES,
  LTI_SCORE_KIND,
  LTI_SCORE_MAX_ATTEMPTS,
  retryAfterMs,
} from '../../src/lti/grade-passback';
import { IDENTITY_KINDS } from '../../src/identity/provisioning';
import { AGS_CLAIM } from '../../src/lti/validate-launch';
import { registerPlatform, ltiLaunch } from './lti-fixtures';
import { startAgsPlatform, type AgsPlatform } from './ags-platform';
import type { EvidenceSubmission } from '@portal/contract';
import {
  complete,
  createSession,
  join,
  KNEE_75,
  KNEE_80,
  KNEE_90,
  learner,
  productId,
  submitImages,
  userHeaders,
} from '../routes/api/v1/simulator/session-fixtures';

/**
 * Grade passback (AGS 2.0) end to end in-process: a real launch from a platform served over
 * HTTP, a session started with its launch id and completed by the simulator's call, the app's
 * own outbox worker (kicked by the completion) and the platform's token and score endpoints.
 */
describe('LTI grade passback (AGS)', () => {
  let t: TestApp;
  let lms: AgsPlatform;

  before(async () => {
    t = await buildTestApp();
    lms = await startAgsPlatform({
      toolJwks: async () =>
        (await t.app.inject({ method: 'GET', url: '/api/lti/jwks' })).json<JSONWebKeySet>(),
    });
    await registerPlatform(t.db, lms.platform, lms.jwksUrl, 'Demo Hospital');
    // The registration helper names `${issuer}/token`; this platform's token URL is exactly that.
    assert.equal(`${lms.platform.issuer}/token`, lms.tokenUrl);
  });
  after(async () => {
    await t.close();
    await lms.close();
  });
  beforeEach(() => {
    lms.scores.length = 0;
    lms.outage.length = 0;
  });

  const one = async <T>(sql: string, params: unknown[] = []) =>
    (await t.db.query<T & Record<string, unknown>>(sql, params)).rows[0] as T;

  const scoreOnly = { scope: [AGS_SCOPES.score], lineitem: '' };

  /**
   * Launch (with these AGS claims), start, join, submit `images` and complete with
   * `reportDetails`. The images are marked 80 % and the simulator claims 100: what the platform
   * gets is the computed 80 (issue #23).
   */
  async function completedLaunch(
    ags: Record<string, unknown> | null,
    reportDetails: Record<string, unknown> | null = { summary: 'Knee AP: good', score: 100 },
    images: readonly EvidenceSubmission[] = [KNEE_80],
  ) {
    const to = await ltiLaunch(t.app, lms.platform, {
      sub: 'lms-lena',
      email: learner.email,
      claims: ags ? { [AGS_CLAIM]: ags } : {},
      omit: ags ? [] : [AGS_CLAIM],
    });
    const launchId = to.searchParams.get('launchId')!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
      headers: await userHeaders(learner.sub),
      payload: {
        configuration: 'radiography.lower-limb.knee',
        mode: 'Desktop',
        ltiLaunchId: launchId,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { token, uuid } = res.json<{ token: string; uuid: string }>();
    assert.equal((await join(t, token)).statusCode, 200);
    await submitImages(t, token, images);
    const done = await complete(t, token, reportDetails === null ? {} : { reportDetails });
    return { launchId, uuid, token, done };
  }

  /** What the app's worker does once the completion kicked it. */
  const settle = () => t.app.outboxWorker.idle();

  /** Time passes: the item is due again; the worker looks. */
  async function retryNow(uuid: string) {
    await t.db.query(
      `update outbox set next_attempt_at = now() where payload->>'sessionUuid' = $1`,
      [uuid],
    );
    t.app.outboxWorker.kick();
    await settle();
  }

  const itemOf = (uuid: string) =>
    one<{
      attempts: number;
      done: boolean;
      last_error: string | null;
      wait_s: number;
      key: string;
    }>(
      `select attempts, done_at is not null as done, last_error, key,
              extract(epoch from (next_attempt_at - now()))::float8 as wait_s
         from outbox where kind = $2 and payload->>'sessionUuid' = $1`,
      [uuid, LTI_SCORE_KIND],
    );

  const auditOf = (uuid: string) =>
    t.db
      .query<{
        action: string;
        organisation: string;
        actor: string;
        after: Record<string, unknown>;
      }>(
        `select a.action, o.name as organisation, a.actor_name as actor, a.after
           from audit_log a left join organisations o on o.id = a.organisation_id
          where a.entity_type = 'lti_score' and a.entity_id = $1 order by a.id`,
        [uuid],
      )
      .then((r) => r.rows);

  test('a completed LTI session: the platform gets exactly one score with the right fields', async () => {
    const { uuid, done } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    assert.equal(done.statusCode, 200, done.body);
    await settle();
    assert.equal(lms.scores.length, 1);
    const [score] = lms.scores;
    const completedAt = await one<{ at: Date }>(
      'select completed_at as at from simulation_sessions where uuid = $1',
      [uuid],
    );
    assert.equal(score!.lineItem, lms.lineItemUrl);
    assert.equal(score!.contentType, 'application/vnd.ims.lis.v1.score+json');
    assert.deepEqual(score!.body, {
      userId: 'lms-lena',
      scoreGiven: 80,
      scoreMaximum: 100,
      activityProgress: 'Completed',
      gradingProgress: 'FullyGraded',
      timestamp: new Date(completedAt.at).toISOString(),
    });
    assert.match(String(score!.body.timestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const item = await itemOf(uuid);
    assert.equal(item.done, true);
    assert.equal(item.last_error, null);
    assert.deepEqual(await auditOf(uuid), [
      {
        action: 'post',
        organisation: 'Demo Hospital',
        actor: 'System',
        after: {
          learner: `${learner.firstName} ${learner.lastName}`,
          email: learner.email,
          platform: lms.origin,
          lineItem: lms.lineItemUrl,
          scoreGiven: 80,
          scoreMaximum: 100,
          gradingProgress: 'FullyGraded',
          timestamp: score!.body.timestamp,
        },
      },
    ]);
    // Done means done: more rounds post nothing again.
    await retryNow(uuid);
    assert.equal(lms.scores.length, 1);
  });

  test('the platform down (503): retried with backoff, after recovery exactly one score', async () => {
    lms.outage.push({ status: 503 }, { status: 503 });
    const before = lms.scoreRequests();
    const { uuid } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    let item = await itemOf(uuid);
    assert.equal(item.done, false);
    assert.equal(item.attempts, 1);
    assert.equal(item.last_error, 'post score: HTTP_STATUS (HTTP 503)');
    // The default backoff: 2 s after the first failure, ±20 %.
    assert.ok(item.wait_s > 1 && item.wait_s <= 2.5, `waits ${item.wait_s} s`);
    // Not due yet: a kick does not retry it.
    t.app.outboxWorker.kick();
    await settle();
    assert.equal(lms.scoreRequests() - before, 1);

    await retryNow(uuid);
    item = await itemOf(uuid);
    assert.equal(item.attempts, 2);
    assert.ok(item.wait_s > 3 && item.wait_s <= 5, `doubles to ~4 s, waits ${item.wait_s} s`);
    assert.equal(lms.scores.length, 0);

    await retryNow(uuid);
    assert.equal(lms.scores.length, 1);
    assert.equal(lms.scores[0]!.body.scoreGiven, 80);
    assert.equal((await itemOf(uuid)).done, true);
    await retryNow(uuid);
    assert.equal(lms.scores.length, 1, 'never twice');
    assert.equal(lms.scoreRequests() - before, 3);
    assert.deepEqual(
      (await auditOf(uuid)).map((a) => a.action),
      ['post'],
    );
  });

  test('a platform that stays down: after the last attempt the grade is given up, recorded and audited', async () => {
    lms.outage.push({ status: 503 });
    const { uuid } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    assert.equal((await itemOf(uuid)).done, false);
    // A day of retries later: the next failure is the last one.
    await t.db.query(`update outbox set attempts = $2 where payload->>'sessionUuid' = $1`, [
      uuid,
      LTI_SCORE_MAX_ATTEMPTS - 1,
    ]);
    lms.outage.push({ status: 503 });
    await retryNow(uuid);
    const item = await itemOf(uuid);
    assert.equal(item.done, true);
    assert.equal(item.attempts, LTI_SCORE_MAX_ATTEMPTS);
    assert.match(
      item.last_error ?? '',
      new RegExp(
        `^post score, given up after ${LTI_SCORE_MAX_ATTEMPTS} attempts: HTTP_STATUS \\(HTTP 503\\)$`,
      ),
    );
    const before = lms.scoreRequests();
    await retryNow(uuid);
    assert.equal(lms.scoreRequests(), before, 'not asked again');
    const audit = await auditOf(uuid);
    assert.deepEqual(
      audit.map((a) => [a.action, a.after.httpStatus]),
      [['post_failed', 503]],
    );
    assert.equal(lms.scores.length, 0);
  });

  test('429 with Retry-After: the next attempt waits as long as the platform asked', async () => {
    lms.outage.push({ status: 429, headers: { 'retry-after': '120' } });
    const { uuid } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    const item = await itemOf(uuid);
    assert.equal(item.done, false);
    assert.match(item.last_error ?? '', /HTTP 429/);
    assert.ok(item.wait_s > 118 && item.wait_s <= 120.5, `waits ${item.wait_s} s`);
    await retryNow(uuid);
    assert.equal(lms.scores.length, 1);
    assert.equal((await itemOf(uuid)).done, true);
  });

  test('a permanent 400 is recorded, logged in the audit and not retried', async () => {
    lms.outage.push({ status: 400 });
    const before = lms.scoreRequests();
    const { uuid } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    const item = await itemOf(uuid);
    assert.equal(item.done, true);
    assert.equal(item.attempts, 1);
    // The status and a code; never the platform's body (its words could be anything).
    assert.equal(item.last_error, 'post score: HTTP_STATUS (HTTP 400)');
    await retryNow(uuid);
    assert.equal(lms.scoreRequests() - before, 1, 'asked once');
    assert.equal(lms.scores.length, 0);
    const audit = await auditOf(uuid);
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.action, 'post_failed');
    assert.equal(audit[0]!.organisation, 'Demo Hospital');
    assert.equal(audit[0]!.after.httpStatus, 400);
    assert.equal(audit[0]!.after.errorCode, 'HTTP_STATUS');
    assert.equal(audit[0]!.after.error, 'post score: HTTP_STATUS (HTTP 400)');
    assert.doesNotMatch(JSON.stringify(audit[0]!.after), /internal\.lms\.example/);
  });

  test('the token is reused while valid; a 401 gets a new one once', async () => {
    const first = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    const tokensBefore = lms.tokens.length;
    const second = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    assert.equal(lms.tokens.length, tokensBefore, 'no new token for the second score');
    assert.equal(lms.scores.length, 2);
    assert.equal(lms.scores[0]!.token, lms.scores[1]!.token);
    assert.ok(lms.tokens.every((k) => k.scope === AGS_SCOPES.score));

    lms.revokeTokens();
    const third = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    assert.equal(lms.tokens.length, tokensBefore + 1, 'one new token after the 401');
    assert.equal(lms.scores.length, 3);
    assert.notEqual(lms.scores[2]!.token, lms.scores[1]!.token);
    for (const { uuid } of [first, second, third]) assert.equal((await itemOf(uuid)).done, true);

    // A token endpoint that refuses our assertion outright is a registration problem: final.
    lms.revokeTokens();
    lms.tokenOutage.push(401);
    const refused = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    const item = await itemOf(refused.uuid);
    assert.equal(item.done, true);
    assert.equal(item.last_error, 'access token: HTTP_STATUS (HTTP 401)');
    assert.equal(lms.scores.length, 3);
  });

  test('only a container: the line item of the resource link is created once, then found', async () => {
    const ags = {
      scope: [AGS_SCOPES.score, AGS_SCOPES.lineItem],
      lineitems: lms.lineItemsUrl,
    };
    const count = lms.lineItems.length;
    const a = await completedLaunch(ags, { summary: 'ok', score: 100 }, [KNEE_75]);
    await settle();
    const b = await completedLaunch(ags, { summary: 'ok', score: 100 }, [KNEE_90]);
    await settle();
    assert.equal(lms.lineItems.length, count + 1, 'one line item made');
    const made = lms.lineItems.at(-1)!;
    assert.deepEqual(
      { label: made.label, scoreMaximum: made.scoreMaximum, resourceLinkId: made.resourceLinkId },
      { label: 'Knee, Desktop', scoreMaximum: 100, resourceLinkId: 'resource-link-1' },
    );
    assert.deepEqual(
      lms.scores.map((s) => [s.lineItem, s.body.scoreGiven]),
      [
        [made.id, 75],
        [made.id, 90],
      ],
    );
    for (const { uuid } of [a, b]) assert.equal((await itemOf(uuid)).done, true);
  });

  test('no LTI launch, no AGS claim, no score scope or no computed score: nothing is queued', async () => {
    const count = async () =>
      (
        await one<{ n: number }>('select count(*)::int as n from outbox where kind = $1', [
          LTI_SCORE_KIND,
        ])
      ).n;
    const before = await count();

    const plain = await createSession(t);
    assert.equal((await join(t, plain.token)).statusCode, 200);
    const res = await complete(t, plain.token, { reportDetails: { summary: 'x', score: 50 } });
    assert.equal(res.statusCode, 200, res.body);

    const noClaim = await completedLaunch(null);
    const readOnly = await completedLaunch({
      scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly'],
      lineitem: lms.lineItemUrl,
    });
    const containerWithoutScope = await completedLaunch({
      scope: [AGS_SCOPES.score],
      lineitems: lms.lineItemsUrl,
    });
    // The forged grade of issue #23: the simulator's call (its token reaches the learner's
    // browser) claims 100 without a single image. No marked image, no score, nothing posted.
    const noScore = await completedLaunch(
      { ...scoreOnly, lineitem: lms.lineItemUrl },
      { summary: 'x', score: 100 },
      [],
    );
    const noReport = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl }, null, []);
    for (const c of [noClaim, readOnly, containerWithoutScope, noScore, noReport]) {
      assert.equal(c.done.statusCode, 200, c.done.body);
    }
    await settle();
    assert.equal(await count(), before);
    assert.equal(lms.scores.length, 0);
  });

  test('the outbox item commits with the completion: a failing completion leaves neither', async () => {
    // The grade's insert fails inside the completion's transaction.
    await t.db.exec(`
      create function refuse_score() returns trigger language plpgsql as $$
      begin
        if new.kind = '${LTI_SCORE_KIND}' then raise exception 'refused for the test'; end if;
        return new;
      end $$;
      create trigger refuse_score before insert on outbox for each row execute function refuse_score();`);
    try {
      const { uuid, done } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
      assert.equal(done.statusCode, 500);
      const row = await one<{ status: string; report: unknown; completed: unknown }>(
        `select status, report_details as report, completed_at as completed
           from simulation_sessions where uuid = $1`,
        [uuid],
      );
      assert.deepEqual(row, { status: 'in_progress', report: null, completed: null });
      assert.equal(await itemOf(uuid), undefined);
    } finally {
      await t.db.exec('drop trigger refuse_score on outbox; drop function refuse_score();');
    }
    await settle();
    assert.equal(lms.scores.length, 0);
  });

  test('a removed platform registration: the grade is refused for good, not retried', async () => {
    const other = await startAgsPlatform({
      toolJwks: async () =>
        (await t.app.inject({ method: 'GET', url: '/api/lti/jwks' })).json<JSONWebKeySet>(),
    });
    try {
      const id = await registerPlatform(t.db, other.platform, other.jwksUrl, 'Demo Hospital');
      const to = await ltiLaunch(t.app, other.platform, {
        sub: 'lms-lena',
        email: learner.email,
        claims: { [AGS_CLAIM]: { scope: [AGS_SCOPES.score], lineitem: other.lineItemUrl } },
      });
      const session = await t.app.inject({
        method: 'POST',
        url: `/api/v1/product/${await productId(t.db, 'radiography')}/session`,
        headers: await userHeaders(learner.sub),
        payload: {
          configuration: 'radiography.lower-limb.knee',
          mode: 'Desktop',
          ltiLaunchId: to.searchParams.get('launchId'),
        },
      });
      const { token, uuid } = session.json<{ token: string; uuid: string }>();
      await join(t, token);
      await submitImages(t, token, [KNEE_80]);
      // The first attempt finds the platform down; its registration goes before the next.
      other.outage.push({ status: 503 });
      const res = await complete(t, token, { reportDetails: { summary: 's', score: 60 } });
      assert.equal(res.statusCode, 200, res.body);
      await settle();
      assert.equal((await itemOf(uuid)).done, false);
      await t.db.query('delete from lti_platforms where id = $1', [id]);
      await retryNow(uuid);
      const item = await itemOf(uuid);
      assert.equal(item.done, true);
      assert.equal(item.last_error, 'platform: PLATFORM_REMOVED');
      assert.equal(other.scores.length, 0);
      assert.equal((await auditOf(uuid))[0]?.action, 'post_failed');
    } finally {
      await other.close();
    }
  });

  test('an AGS line item on a host the platform was not registered with is refused and recorded', async () => {
    // The same server under another name: reachable, so only the host rule can stop the post.
    const foreign = lms.lineItemUrl.replace('//127.0.0.1:', '//localhost:');
    assert.notEqual(foreign, lms.lineItemUrl);
    const before = lms.scoreRequests();
    const { uuid } = await completedLaunch({ ...scoreOnly, lineitem: foreign });
    await settle();
    const item = await itemOf(uuid);
    assert.equal(item.done, true, 'refused for good: asking again cannot help');
    assert.equal(item.last_error, 'post score: OUTBOUND_BLOCKED_HOST');
    assert.equal(lms.scoreRequests(), before, 'nothing was sent');
    const audit = await auditOf(uuid);
    assert.deepEqual(
      audit.map((a) => [a.action, a.after.errorCode, a.after.httpStatus, a.after.lineItem]),
      [['post_failed', 'OUTBOUND_BLOCKED_HOST', null, foreign]],
    );
  });

  test('without an identity provider the worker sends grades and leaves identity items waiting', async () => {
    assert.equal(t.app.identityAdmin, null, 'this app has no identity provider');
    await t.db.query(
      `insert into outbox (kind, key, payload) values ($1, 'user:waiting', '{"userId": "x"}')`,
      [IDENTITY_KINDS.update],
    );
    const { uuid } = await completedLaunch({ ...scoreOnly, lineitem: lms.lineItemUrl });
    await settle();
    assert.equal((await itemOf(uuid)).done, true);
    const waiting = await one<{ attempts: number; done: boolean }>(
      `select attempts, done_at is not null as done from outbox where key = 'user:waiting'`,
    );
    assert.deepEqual(waiting, { attempts: 0, done: false }, 'never claimed, so never failed');
    await t.db.query(`delete from outbox where key = 'user:waiting'`);
  });

  test('Retry-After in seconds or as a date, capped at an hour', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs('Wed, 25 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('Wed, 25 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(retryAfterMs('999999', now), 3_600_000);
    assert.equal(retryAfterMs(null, now), undefined);
    assert.equal(retryAfterMs('soon', now), undefined);
  });
});
