import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, type TestApp } from '../../../../helper';
import { deleteAllReports } from '../../../../factories/reports';
import {
  complete,
  createSession,
  educator,
  join,
  KNEE_80,
  KNEE_90,
  learner,
  markedKnee,
  submitImages,
  userHeaders,
} from '../simulator/session-fixtures';

/**
 * Migration 0034's insight_images (issue #23 point 6) against a recomputation from the raw rows
 * (sessions, evidence, the dose marks) after each write that feeds it: marking, completion, a
 * repeat, an educator's override, a moved learner, a deleted image and a deleted report. The
 * recomputation is written here on its own, as the insight queries read the raw rows before the
 * table existed, so a trigger that misses a write shows as a difference.
 */
const RECOMPUTED = `
  select e.id as evidence_id, s.uuid::text as session_uuid, s.organisation_id,
         s.status in ('complete', 'closed') as reported,
         coalesce(s.completed_at, s.closed_at, s.created_at) as recorded, s.user_id::text,
         s.product_id, lower(s.configuration) as configuration_key, s.pass_mark, e.position, e.practice_activity as projection,
         e.score::float8 as score,
         exists (select 1 from evidence earlier
                  where earlier.session_uuid = e.session_uuid
                    and earlier.practice_activity = e.practice_activity
                    and earlier.position < e.position
                    and earlier.evidence_data #>> '{meta,type}' = 'xray_image') as is_repeat,
         (select m.value from evidence_marks m where m.evidence_id = e.id and m.criterion = 'dose')
           as dose_value,
         (e.evidence_data #>> '{dose,dapMGyCm2}')::float8 as dap_mgy_cm2
    from simulation_sessions s join evidence e on e.session_uuid = s.uuid
   where e.evidence_data #>> '{meta,type}' = 'xray_image'
   order by e.id`;
const STORED = `
  select evidence_id, session_uuid::text as session_uuid, organisation_id, reported, recorded,
         user_id::text, product_id, configuration_key, pass_mark, position, projection,
         score::float8 as score, is_repeat, dose_value, dap_mgy_cm2
    from insight_images order by evidence_id`;

describe('insight_images follows every write', () => {
  let t: TestApp;

  const stored = async () => (await t.db.query<Record<string, unknown>>(STORED)).rows;
  const assertInStep = async (when: string) => {
    const recomputed = (await t.db.query<Record<string, unknown>>(RECOMPUTED)).rows;
    assert.deepEqual(await stored(), recomputed, `insight_images after ${when}`);
    return recomputed;
  };

  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());
  beforeEach(() => deleteAllReports(t.db));

  test('marking, completion, a repeat, an override and deletions', async () => {
    const session = await createSession(t);
    assert.equal((await join(t, session.token)).statusCode, 200);
    // Two images of one projection (the second a repeat), then another projection.
    const [first, second, lateral] = await submitImages(t, session.token, [
      KNEE_80,
      KNEE_90,
      markedKnee({}, 'Knee lateral (left)'),
    ]);
    let rows = await assertInStep('marking');
    assert.deepEqual(
      rows.map((r) => [r.evidence_id, r.is_repeat, r.reported]),
      [
        [first, false, false],
        [second, true, false],
        [lateral, false, false],
      ],
    );
    assert.ok(
      rows.every((r) => r.score !== null && r.dose_value !== null),
      'marked with a dose',
    );

    assert.equal((await complete(t, session.token)).statusCode, 200);
    rows = await assertInStep('completion');
    assert.ok(rows.every((r) => r.reported === true && r.pass_mark !== null));

    // The educator takes KNEE_90's centring (half of 20) to its full 20: the image is re-scored.
    const before = rows.find((r) => r.evidence_id === second)!.score as number;
    const override = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/report/${session.uuid}/feedback`,
      headers: await userHeaders(educator.sub),
      payload: {
        overrides: [
          { evidenceId: second, criterion: 'centring', mark: 20, reason: 'Centred on review.' },
        ],
      },
    });
    assert.equal(override.statusCode, 200, override.body);
    rows = await assertInStep('an override');
    assert.ok((rows.find((r) => r.evidence_id === second)!.score as number) > before);

    // Bulk writes of the session's part (as a migration or the bench would make them).
    await t.db.query('update simulation_sessions set pass_mark = 70');
    await t.db.query(
      'update users set organisation_id = (select id from organisations where name = $1) where id = $2',
      ['Demo Brightspace College', learner.sub],
    );
    rows = await assertInStep('a moved learner and a new pass mark');
    assert.ok(rows.every((r) => r.pass_mark === 70));
    await t.db.query(
      'update users set organisation_id = (select id from organisations where name = $1) where id = $2',
      ['Demo Hospital', learner.sub],
    );
    await assertInStep('the learner moved back');

    // Without its first image, KNEE_90 is no repeat any more.
    await t.db.query('delete from evidence where id = $1', [first]);
    rows = await assertInStep('a deleted image');
    assert.deepEqual(
      rows.map((r) => [r.evidence_id, r.is_repeat]),
      [
        [second, false],
        [lateral, false],
      ],
    );

    // An image written before the others (a copy, a bulk load): KNEE_90 is a repeat again, and
    // the new row is one too.
    const copied = await t.db.query<{ id: number }>(
      `insert into evidence (session_uuid, position, practice_activity, evidence_data)
       select session_uuid, 0, practice_activity, evidence_data from evidence where id = $1
       returning id`,
      [second],
    );
    rows = await assertInStep('an image inserted before the others');
    assert.deepEqual(
      rows.map((r) => [r.evidence_id, r.is_repeat]),
      [
        [second, true],
        [lateral, false],
        [copied.rows[0]!.id, false],
      ],
    );

    // The learner's next report stays when this one goes.
    const kept = await createSession(t);
    assert.equal((await join(t, kept.token)).statusCode, 200);
    await submitImages(t, kept.token, [KNEE_90]);
    await t.db.query('delete from simulation_sessions where uuid = $1', [session.uuid]);
    rows = await assertInStep('a deleted report');
    assert.deepEqual(
      rows.map((r) => r.session_uuid),
      [kept.uuid],
    );
  });
});
