import { randomUUID } from 'node:crypto';
import type { EvidenceSubmission } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';
import { account, type TestApp } from '../../../../helper';
import { organisationId } from './admin-fixtures';
import {
  complete,
  createSession,
  join,
  markedKnee,
  submitImages,
} from '../simulator/session-fixtures';

/**
 * A small cohort with hand-computable insight (issue #23 point 4), built through the real launch
 * loop so the marks are the marking transaction's. The knee configuration gets a two-criterion
 * scheme: centring (50: ≤ 10 mm full, ≤ 20 mm half) and dose (50: DRL 100 mGy·cm² full, ≤ 150 %
 * half); pass mark 60. Range 2026-03-02 (Mon) … 2026-03-29 (Sun), four weeks.
 */
export const KNEE = 'radiography.lower-limb.knee';
export const RANGE = { from: '2026-03-02', to: '2026-03-29' };
export const SCHEME = {
  passMark: 60,
  criteria: {
    centring: { weight: 50, fullWithinMm: 10, partialWithinMm: 20 },
    dose: { weight: 50, drlDapMGyCm2: 100, partialAtMostPercent: 150 },
  },
};

export const lena = account('learner', 'Demo Hospital');
export const otherLearner = account('learner', 'Other College');
/** A second Demo Hospital learner whose name a spreadsheet would take for a formula. */
export const ZOE = { first: '=HYPERLINK("x")', last: 'Quote, "Q"' };

const ap = (centringErrorMm: number, dapMGyCm2: number) =>
  markedKnee({ centringErrorMm, dapMGyCm2 }, 'Knee AP');
const lateral = (centringErrorMm: number, dapMGyCm2: number) =>
  markedKnee({ centringErrorMm, dapMGyCm2 }, 'Knee lateral');

export interface Cohort {
  organisationId: number;
  otherOrganisationId: number;
  zoe: string;
  sessions: Record<'s1' | 's2' | 's3', string>;
}

/** A completed knee session of `sub` with these images, recorded at `at` and owned by `owner`. */
async function report(
  t: TestApp,
  images: readonly EvidenceSubmission[],
  at: string,
  owner?: string,
): Promise<string> {
  const session = await createSession(t, { configuration: KNEE });
  await join(t, session.token);
  await submitImages(t, session.token, images);
  const res = await complete(t, session.token);
  if (res.statusCode !== 200) throw new Error(res.body);
  await t.db.query(
    `update simulation_sessions set completed_at = $2, user_id = coalesce($3::uuid, user_id)
      where uuid = $1`,
    [session.uuid, at, owner ?? null],
  );
  return session.uuid;
}

export async function buildCohort(t: TestApp): Promise<Cohort> {
  const db: Queryable = t.db;
  await db.query(
    `update product_configurations set marking_scheme = $1::jsonb
      where lower(configuration_name) = lower($2)`,
    [JSON.stringify(SCHEME), KNEE],
  );
  const demo = await organisationId(db, 'Demo Hospital');
  const zoe = randomUUID();
  await db.query(
    `insert into users (id, email, first_name, last_name, organisation_id, role_id)
     values ($1, 'zoe@demo.test', $2, $3, $4, 1)`,
    [zoe, ZOE.first, ZOE.last, demo],
  );
  // S1: AP 100 (ratio 0.5), AP repeat 50 (1.2, rejected), lateral 0 (2.0, rejected): score 50.
  const s1 = await report(t, [ap(4, 50), ap(15, 120), lateral(30, 200)], '2026-03-03T10:00:00Z');
  // S2, two weeks on: AP 100 (0.8): score 100.
  const s2 = await report(t, [ap(4, 80)], '2026-03-17T10:00:00Z');
  // S3, Zoe's: lateral 75 (centring half, 0.9): score 75.
  const s3 = await report(t, [lateral(15, 90)], '2026-03-04T10:00:00Z', zoe);
  // Outside the range, or not reports: never counted.
  await report(t, [ap(4, 50)], '2026-04-01T00:00:00Z');
  await report(t, [ap(4, 50)], '2026-03-01T23:59:59Z');
  const open = await createSession(t, { configuration: KNEE });
  await join(t, open.token);
  await submitImages(t, open.token, [ap(4, 50)]);
  // Another organisation's learner in the range.
  const other = await createSession(t, { configuration: KNEE, sub: otherLearner.sub });
  await join(t, other.token);
  await submitImages(t, other.token, [ap(40, 900)]);
  await complete(t, other.token);
  await db.query(
    `update simulation_sessions set completed_at = '2026-03-10T10:00:00Z' where uuid = $1`,
    [other.uuid],
  );
  return {
    organisationId: demo,
    otherOrganisationId: await organisationId(db, 'Other College'),
    zoe,
    sessions: { s1, s2, s3 },
  };
}
