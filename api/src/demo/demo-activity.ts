import { createHash } from 'node:crypto';
import {
  ANALYSIS_STATUS,
  LESSON_PARTS_PER_LESSON,
  type CompleteSessionBody,
  type EvidenceSubmission,
  type MarkingScheme,
  type SimulationMode,
  type TubeSettings,
} from '@portal/contract';
import { DEMO_COHORT, type DemoAccount } from '@portal/contract/demo-accounts';
import {
  captureImage,
  captureLessonPart,
  createRandom,
  exposureScore,
  planFor,
  renderRadiograph,
  reportSummary,
  type BodyArea,
  type BodyAreaKey,
  type Capture,
  type Radiograph,
  type Random,
  type RenderOptions,
} from '@portal/xray';
import type { Db } from '../db/driver';
import { hashSessionToken, newSessionToken } from '../lib/session-token';
import type { Storage } from '../storage/local-storage';
import { configurationOf } from './catalogue';
import { markImage } from '../marking/mark-image';
import { sessionScore } from '../marking/session-score';

/**
 * Demo data that looks alive (issue #8): the demo cohort (contract/src/demo-cohort.json) with
 * seats, a Demo Hospital licence that runs out within a month, and about 300 reports with their
 * evidence over the last 90 days, made with the simulator's generator (@portal/xray): the rows a
 * real session leaves (evidence with its image file in the storage, completion with the report
 * details the simulator computes, some of it analysed by its owner), dated in the past.
 *
 * Written in batches of four statements rather than through the session and evidence
 * repositories, whose one-capture-per-transaction path (eight statements per image, as the
 * simulator uploads them) made the first start on PGlite take about four times as long. Pictures
 * are rendered once per body area, side and technique (a few dozen) and stored per evidence.
 *
 * Deterministic: the same people, sessions (fixed uuids), leaves, techniques and analyses on every
 * database; only the dates move with `now`. Seeded once: the `demo_seeds` row makes later starts
 * do nothing, so administrators' deletions and changes stay.
 */

export const DEMO_ACTIVITY_SEED = 'demo-activity';
export const DEMO_ACTIVITY_REPORTS = 300;
export const DEMO_ACTIVITY_DAYS = 90;
/** A claim older than this was left by a start that died; another start takes over. */
const STALE_CLAIM_SECONDS = 600;

export const PILOT_LICENCE = {
  organisation: 'Demo Hospital',
  licenseName: 'Radiation safety pilot',
  salesReference: 'SO-2025-0113',
  numberOfSeats: 12,
  /** Runs out three weeks after the seed, so it is "expiring within 30 days" on first start. */
  expiresInDays: 21,
  duration: 'P1Y',
  entitlements: [
    ['radiation-safety', 'VR'],
    ['radiation-safety', 'Desktop'],
  ] as Array<[string, SimulationMode]>,
  /** The first learners of the cohort's Demo Hospital list. */
  seats: 10,
} as const;

/** What a learner may launch: product code, mode, and the leaves they practise with it. */
interface Offer {
  product: string;
  mode: SimulationMode;
  leaves: string[];
}

// The leaves a course actually practises; each X-ray area has one typical mistake besides the
// standard technique, so a few dozen rendered pictures serve every image.
const RADIOGRAPHY_LEAVES = [
  'lower-limb.knee',
  'lower-limb.ankle',
  'upper-limb.hand',
  'upper-limb.wrist',
  'torso.chest',
  'torso.pelvis',
  'skull.skull',
];
const SAFETY_LEAVES = [
  'heart.coronary-angiography',
  'liver.liver-biopsy',
  'head.cerebral-angiography',
  'lesson.distance-and-time',
  'lesson.shielding',
];
const BIRTHING_LEAVES = ['all-fours', 'kneeling', 'semi-recumbent'];

const MISTAKE: Partial<Record<BodyAreaKey, number>> = {
  knee: 0.4,
  ankle: 2.5,
  hand: 2.5,
  wrist: 0.4,
  chest: 2.5,
  pelvis: 0.4,
  skull: 0.4,
  abdomen: 2.5,
};

const ANALYSIS_TEXT = {
  good: [
    'Good exposure and positioning; the joint space is clearly shown.',
    'Exposure on target. Collimation could be a little tighter.',
    'Diagnostic image, side marker visible, no repeat needed.',
  ],
  under: [
    'Underexposed: the image is grainy. Repeat with a higher mAs.',
    'Too little exposure; the bone detail is lost in the noise.',
  ],
  over: [
    'Overexposed: the soft tissue is burnt out. Reduce the mAs.',
    'Too dark for diagnosis; the dose was higher than needed.',
  ],
  lesson: [
    'Understood: stepping back halves the dose far faster than shortening the time.',
    'Completed; shielding reduced my chest dose as expected.',
  ],
} as const;

export interface DemoActivityOptions {
  /** The clock the 90 days end at (tests). */
  now?: Date;
  /** Progress for the log. */
  onProgress?: (done: number, total: number) => void;
  /** Stops between batches (the app is closing); the claim is left for the next start. */
  signal?: AbortSignal;
}

export interface DemoActivityResult {
  /** False when it ran before (or another process runs it). */
  seeded: boolean;
  learners: number;
  reports: number;
  evidence: number;
  images: number;
  /** Distinct pictures rendered for those images, and the time that took. */
  rendered: number;
  renderMs: number;
}

const NOTHING: DemoActivityResult = {
  seeded: false,
  learners: 0,
  reports: 0,
  evidence: 0,
  images: 0,
  rendered: 0,
  renderMs: 0,
};

const DAY_MS = 86_400_000;
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

const pick = <T>(random: Random, items: readonly T[]): T => {
  const item = items[Math.floor(random.next() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

/**
 * Pictures by body area, side and technique: the seed of a capture only varies the patient and
 * the noise, so one rendered picture per combination serves every capture of it.
 */
function pooledRenderer() {
  const pool = new Map<string, Radiograph>();
  const render = (options: RenderOptions): Radiograph => {
    const { area, side, tube } = options;
    const key = `${area.key}:${side}:${tube.kV}:${tube.mAs}:${tube.sidCm}`;
    let radiograph = pool.get(key);
    if (!radiograph) {
      const started = performance.now();
      radiograph = renderRadiograph({ ...options, seed: key });
      renderMs += performance.now() - started;
      pool.set(key, radiograph);
    }
    return radiograph;
  };
  let renderMs = 0;
  return { render, size: () => pool.size, ms: () => Math.round(renderMs) };
}

interface LeafRow {
  id: number;
  product_id: number;
  product_code: string;
  display_name: string;
  configuration: string;
}

interface PlannedReport {
  n: number;
  uuid: string;
  learner: DemoAccount;
  leaf: LeafRow;
  mode: SimulationMode;
  created: Date;
  started: Date;
  finished: Date;
  /** Closed by the learner without the simulator completing it: no report details. */
  closed: boolean;
  /** Evidence items to analyse (from the first), and whether their analysis is a rejection. */
  analysed: number;
}

async function claim(db: Db): Promise<boolean> {
  const res = await db.query<{ name: string }>(
    `insert into demo_seeds (name, state) values ($1, 'running')
     on conflict (name) do update set claimed_at = now()
       where demo_seeds.state = 'running'
         and demo_seeds.claimed_at < now() - make_interval(secs => $2)
     returning name`,
    [DEMO_ACTIVITY_SEED, STALE_CLAIM_SECONDS],
  );
  return res.rows.length > 0;
}

/** The cohort's users, their seats and the pilot licence; answers the learners now in place. */
async function seedPeople(db: Db, now: Date): Promise<DemoAccount[]> {
  const joined = new Date(now.getTime() - 120 * DAY_MS);
  await db.transaction(async (tx) => {
    for (const [index, account] of DEMO_COHORT.entries()) {
      await tx.query(
        `insert into users (id, email, first_name, last_name, organisation_id, role_id, language,
                            created_at, updated_at)
         select $1, $2, $3, $4, o.id, (select id from roles where name = $6), $7, $8, $8
           from organisations o where lower(o.name) = lower($5)
         on conflict do nothing`,
        [
          account.sub,
          account.email,
          account.firstName,
          account.lastName,
          account.organisation,
          account.role,
          account.language,
          new Date(joined.getTime() + index * 3_600_000),
        ],
      );
    }

    const expiry = new Date(now.getTime() + PILOT_LICENCE.expiresInDays * DAY_MS);
    const start = new Date(Date.UTC(expiry.getUTCFullYear() - 1, expiry.getUTCMonth(), expiry.getUTCDate() + 1));
    const organisation = await tx.query<{ id: number }>(
      'select id from organisations where lower(name) = lower($1)',
      [PILOT_LICENCE.organisation],
    );
    const organisationId = organisation.rows[0]?.id;
    if (organisationId !== undefined) {
      const existing = await tx.query<{ id: number }>(
        'select id from license_blocks where organisation_id = $1 and license_name = $2',
        [organisationId, PILOT_LICENCE.licenseName],
      );
      if (existing.rows.length === 0) {
        const block = await tx.query<{ id: number }>(
          `insert into license_blocks (organisation_id, license_name, sales_reference,
             number_of_seats, start_date, expiry_date, is_active, duration_id, created_at)
           values ($1, $2, $3, $4, $5, $6, true,
             (select id from lookups where field = 'license_duration' and code = $7), $8)
           returning id`,
          [
            organisationId,
            PILOT_LICENCE.licenseName,
            PILOT_LICENCE.salesReference,
            PILOT_LICENCE.numberOfSeats,
            isoDate(start),
            isoDate(expiry),
            PILOT_LICENCE.duration,
            start,
          ],
        );
        const blockId = block.rows[0]?.id;
        for (const [code, mode] of PILOT_LICENCE.entitlements) {
          await tx.query(
            `insert into license_block_entitlements (license_block_id, entitlement_id)
             select $1, e.id from entitlements e join products p on p.id = e.product_id
              where p.code = $2 and e.mode = $3
             on conflict do nothing`,
            [blockId, code, mode],
          );
        }
        const pilots = DEMO_COHORT.filter((a) => a.organisation === PILOT_LICENCE.organisation)
          .slice(0, PILOT_LICENCE.seats)
          .map((a) => a.sub);
        await seat(tx, blockId, pilots, start);
      }
    }

    // Each organisation's current demo licence (catalogue.ts) takes its cohort, as far as its
    // seats go: administrators may have lowered them.
    for (const licence of ['Demo Hospital 2026', 'Other College 2026']) {
      const block = await tx.query<{ id: number; organisation: string }>(
        `select lb.id, o.name as organisation from license_blocks lb
           join organisations o on o.id = lb.organisation_id
          where lb.license_name = $1 order by lb.id limit 1`,
        [licence],
      );
      const row = block.rows[0];
      if (!row) continue;
      const members = DEMO_COHORT.filter((a) => a.organisation === row.organisation).map((a) => a.sub);
      await seat(tx, row.id, members, joined);
    }
  });

  const present = await db.query<{ id: string }>(
    `select u.id from users u join roles r on r.id = u.role_id
      where u.id = any($1::uuid[]) and r.name = 'learner'`,
    [DEMO_COHORT.map((a) => a.sub)],
  );
  const ids = new Set(present.rows.map((r) => r.id));
  return DEMO_COHORT.filter((a) => ids.has(a.sub));
}

async function seat(
  tx: Pick<Db, 'query'>,
  blockId: number | undefined,
  userIds: string[],
  assignedAt: Date,
): Promise<void> {
  if (blockId === undefined || userIds.length === 0) return;
  // Only members of the licence's organisation, and no more than its free seats.
  await tx.query(
    `insert into license_block_users (license_block_id, user_id, assigned_at)
     select lb.id, u.id, $3 from license_blocks lb
       join users u on u.organisation_id = lb.organisation_id
      where lb.id = $1 and u.id = any($2::uuid[])
        and not exists (select 1 from license_block_users s
                         where s.license_block_id = lb.id and s.user_id = u.id)
      order by u.created_at, u.id
      limit (select greatest(number_of_seats - seats_used, 0) from license_blocks where id = $1)
     on conflict do nothing`,
    [blockId, userIds, assignedAt],
  );
}

/** Per learner: the offers their current licences grant, from the database. */
async function offersOf(db: Db, learners: DemoAccount[], today: string): Promise<Map<string, Offer[]>> {
  const res = await db.query<{ user_id: string; code: string; mode: SimulationMode }>(
    `select distinct lbu.user_id, p.code, e.mode
       from license_block_users lbu
       join license_blocks lb on lb.id = lbu.license_block_id
       join license_block_entitlements lbe on lbe.license_block_id = lb.id
       join entitlements e on e.id = lbe.entitlement_id
       join products p on p.id = e.product_id
      where lbu.user_id = any($1::uuid[]) and lb.is_active
        and lb.start_date <= $2::date and lb.expiry_date >= $2::date
      order by lbu.user_id, p.code, e.mode`,
    [learners.map((l) => l.sub), today],
  );
  const leavesOf: Record<string, string[]> = {
    radiography: RADIOGRAPHY_LEAVES,
    'radiation-safety': SAFETY_LEAVES,
    birthing: BIRTHING_LEAVES,
  };
  const offers = new Map<string, Offer[]>();
  for (const row of res.rows) {
    const leaves = leavesOf[row.code];
    if (!leaves) continue;
    const list = offers.get(row.user_id) ?? [];
    list.push({
      product: row.code,
      mode: row.mode,
      leaves: leaves.map((leaf) => configurationOf(row.code, ...leaf.split('.'))),
    });
    offers.set(row.user_id, list);
  }
  return offers;
}

/** When report `n` happened: recent days busier, weekdays, working hours; never after `now`. */
function timeOf(random: Random, now: Date): Date {
  for (;;) {
    const daysAgo = Math.floor(DEMO_ACTIVITY_DAYS * random.next() ** 1.5);
    const day = new Date(now.getTime() - daysAgo * DAY_MS);
    const weekday = day.getUTCDay();
    if ((weekday === 0 || weekday === 6) && random.next() < 0.8) continue;
    const minutes = Math.floor(random.between(8 * 60, 17 * 60 + 30));
    const at = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 0, minutes));
    if (at.getTime() < now.getTime() - 3_600_000) return at;
  }
}

function planReports(
  learners: DemoAccount[],
  offers: Map<string, Offer[]>,
  leaves: Map<string, LeafRow>,
  now: Date,
): PlannedReport[] {
  const random = createRandom('portal demo activity');
  // Some learners practise much more than others.
  const weighted = learners
    .filter((l) => (offers.get(l.sub) ?? []).length > 0)
    .map((learner) => ({ learner, weight: 0.3 + random.next() ** 2 * 3 }));
  const total = weighted.reduce((sum, w) => sum + w.weight, 0);
  const plans: PlannedReport[] = [];
  if (weighted.length === 0) return plans;
  for (let n = 0; n < DEMO_ACTIVITY_REPORTS; n++) {
    let target = random.next() * total;
    const chosen = weighted.find((w) => (target -= w.weight) < 0) ?? weighted[weighted.length - 1];
    if (!chosen) break;
    const offer = pick(random, offers.get(chosen.learner.sub) ?? []);
    const leaf = leaves.get(pick(random, offer.leaves));
    if (!leaf) continue;
    const created = timeOf(random, now);
    const started = new Date(created.getTime() + Math.round(random.between(15, 90)) * 1000);
    const minutes = random.between(4, 25);
    const finished = new Date(started.getTime() + Math.round(minutes * 60_000));
    const ageDays = (now.getTime() - created.getTime()) / DAY_MS;
    const closed = random.next() < 0.08;
    // Older reports are more often analysed: all of it, part of it, or not yet.
    const analysedShare = ageDays < 3 ? 0 : random.next() < Math.min(0.75, ageDays / 20) ? 1 : random.next() < 0.25 ? 0.5 : 0;
    plans.push({
      n,
      uuid: demoUuid(`session ${n}`),
      learner: chosen.learner,
      leaf,
      mode: offer.mode,
      created,
      started,
      finished: finished.getTime() < now.getTime() ? finished : new Date(now.getTime() - 60_000),
      closed,
      analysed: analysedShare,
    });
  }
  return plans;
}

/**
 * The captures of one report, as the simulator's page or CLI would have made them: drawn now,
 * rendered when called, so the caller can let requests in between two pictures.
 */
function capturesOf(plan: PlannedReport, random: Random, render: (o: RenderOptions) => Radiograph): Array<() => Capture> {
  const session = { uuid: plan.uuid, configuration: plan.leaf.configuration, categoryName: plan.leaf.display_name };
  const sessionPlan = planFor(session);
  if (sessionPlan.kind === 'lesson') {
    const lessons = random.next() < 0.7 ? 1 : 2;
    const parts = lessons * LESSON_PARTS_PER_LESSON;
    return Array.from({ length: parts }, (_, k) => () => captureLessonPart(session, sessionPlan.lesson, k, lessons));
  }
  const area: BodyArea = sessionPlan.area;
  const count = 1 + Math.floor(random.next() ** 1.3 * 5);
  const mistake = MISTAKE[area.key as BodyAreaKey] ?? 2.5;
  return Array.from({ length: count }, (_, k) => {
    // The first image misses more often; later ones were corrected.
    const wrong = random.next() < (k === 0 ? 0.35 : 0.12);
    const tube: TubeSettings = wrong
      ? { ...area.defaults, mAs: Math.round(area.defaults.mAs * mistake * 10) / 10 }
      : { ...area.defaults };
    return () => captureImage(session, area, tube, k, { render });
  });
}

/** Reports written per transaction: a crash loses at most one batch, which the next run redoes. */
const BATCH = 50;

interface SessionRecord {
  uuid: string;
  user_id: string;
  product_id: number;
  category_id: number;
  configuration: string;
  mode: SimulationMode;
  token_hash: string;
  status: 'complete' | 'closed';
  report_details: CompleteSessionBody['reportDetails'] | null;
  /** Computed from the images' marks, as the evidence route does (issue #23). */
  score: number | null;
  reported_score: number | null;
  pass_mark: number | null;
  created_at: string;
  started_at: string;
  completed_at: string | null;
  closed_at: string | null;
  last_used_at: string;
}

interface FileRecord {
  id: string;
  size: number;
  storage_key: string;
  owner_id: string;
  created_at: string;
}

interface EvidenceRecord {
  session_uuid: string;
  position: number;
  practice_activity: string;
  image_file_id: string | null;
  evidence_data: EvidenceSubmission['evidenceData'];
  analysis_status_id: number;
  analysis: string | null;
  analysed_at: string | null;
  created_at: string;
  score: number | null;
}

interface MarkRecord {
  session_uuid: string;
  position: number;
  criterion: string;
  mark: number | null;
  max: number;
  reason: string;
  value: number | null;
  limit_value: number | null;
}

/** A fixed uuid per label, so a redone batch writes the same keys again instead of new ones. */
function demoUuid(label: string): string {
  const hex = createHash('sha256').update(`portal demo activity ${label}`).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The rows a real session leaves once the simulator joined, submitted its captures (evidence
 * with image files, as POST /simulator/session/evidence writes them) and completed with the
 * report details it computes, or once the learner closed it; the owner's analysis on part of
 * the older ones. Images go to the storage first, as the evidence route does.
 */
async function recordsOf(plan: PlannedReport, storage: Storage, render: (o: RenderOptions) => Radiograph, now: Date, scheme: MarkingScheme | null) {
  // Each report draws from its own generator, so skipping one changes no other.
  const random = createRandom(`report ${plan.n}`);
  const makers = capturesOf(plan, random, render);
  const captures: Capture[] = [];
  const started = plan.started.getTime();
  const step = (plan.finished.getTime() - started) / (makers.length + 1);
  const analysedAt = Math.min(plan.finished.getTime() + 2 * DAY_MS, now.getTime() - 3_600_000);
  const toAnalyse = Math.ceil(makers.length * plan.analysed);
  const files: FileRecord[] = [];
  const evidence: EvidenceRecord[] = [];
  const marks: MarkRecord[] = [];
  const attempts = new Map<string, number>();
  for (const [position, make] of makers.entries()) {
    // A picture blocks the event loop for tens of milliseconds: requests go first.
    await new Promise((resolve) => setImmediate(resolve));
    const capture = make();
    captures.push(capture);
    const createdAt = new Date(started + (position + 1) * step).toISOString();
    let fileId: string | null = null;
    if (capture.image) {
      fileId = demoUuid(`image ${plan.n} ${position}`);
      const storageKey = `evidence/${plan.uuid}/${fileId}.png`;
      await storage.put(storageKey, capture.image);
      files.push({ id: fileId, size: capture.image.length, storage_key: storageKey, owner_id: plan.learner.sub, created_at: createdAt });
    }
    const rating = capture.summary.exposure ?? 'lesson';
    const analysed = position < toAnalyse;
    const { practiceActivity, evidenceData } = capture.submission;
    const imageMarks =
      scheme && evidenceData.meta.type === 'xray_image'
        ? markImage(scheme, { evidenceData, earlierAttempts: attempts.get(practiceActivity) ?? 0 })
        : null;
    attempts.set(practiceActivity, (attempts.get(practiceActivity) ?? 0) + 1);
    for (const c of imageMarks?.criteria ?? []) {
      marks.push({ session_uuid: plan.uuid, position, criterion: c.criterion, mark: c.mark, max: c.max, reason: c.reason, value: c.value, limit_value: c.limit });
    }
    evidence.push({
      session_uuid: plan.uuid,
      position,
      practice_activity: capture.submission.practiceActivity,
      image_file_id: fileId,
      evidence_data: capture.submission.evidenceData,
      analysis_status_id: !analysed
        ? ANALYSIS_STATUS.notAnalysed
        : rating === 'under' || rating === 'over'
          ? ANALYSIS_STATUS.rejected
          : ANALYSIS_STATUS.accepted,
      analysis: analysed ? pick(random, ANALYSIS_TEXT[rating]) : null,
      analysed_at: analysed ? new Date(analysedAt + position * 420_000).toISOString() : null,
      created_at: createdAt,
      score: imageMarks?.score ?? null,
    });
  }
  const sessionPlan = planFor({ configuration: plan.leaf.configuration, categoryName: plan.leaf.display_name });
  const score = exposureScore(captures.map((c) => c.summary));
  const finished = plan.finished.toISOString();
  const session: SessionRecord = {
    uuid: plan.uuid,
    user_id: plan.learner.sub,
    product_id: plan.leaf.product_id,
    category_id: plan.leaf.id,
    configuration: plan.leaf.configuration,
    mode: plan.mode,
    // Nobody ever holds this session's token; the session is long past its lifetime anyway.
    token_hash: hashSessionToken(newSessionToken()),
    status: plan.closed ? 'closed' : 'complete',
    score: sessionScore(evidence.map((e) => ({ projection: e.practice_activity, score: e.score }))),
    reported_score: plan.closed ? null : score,
    pass_mark: scheme?.passMark ?? null,
    // What the simulator's page sends on completion (simulator/src/web/launch-routes.ts).
    report_details: plan.closed
      ? null
      : {
          summary: reportSummary(sessionPlan, captures.length),
          ...(score === null ? {} : { score }),
          durationSeconds: Math.round((plan.finished.getTime() - started) / 1000),
        },
    created_at: plan.created.toISOString(),
    started_at: plan.started.toISOString(),
    completed_at: plan.closed ? null : finished,
    closed_at: plan.closed ? finished : null,
    last_used_at: finished,
  };
  return { session, files, evidence, marks, images: files.length };
}

/** One batch in one transaction: four statements (marks included), whatever its size. */
async function writeBatch(db: Db, sessions: SessionRecord[], files: FileRecord[], evidence: EvidenceRecord[], marks: MarkRecord[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into simulation_sessions (uuid, user_id, product_id, category_id, configuration, mode,
         token_hash, status, report_details, created_at, started_at, completed_at, closed_at,
         last_used_at, score, reported_score, pass_mark)
       select uuid, user_id, product_id, category_id, configuration, mode, token_hash, status,
              report_details, created_at, started_at, completed_at, closed_at, last_used_at,
              score, reported_score, pass_mark
         from jsonb_to_recordset($1::jsonb) as x(uuid uuid, user_id uuid, product_id integer,
           category_id integer, configuration text, mode text, token_hash text, status text,
           report_details jsonb, created_at timestamptz, started_at timestamptz,
           completed_at timestamptz, closed_at timestamptz, last_used_at timestamptz,
           score smallint, reported_score smallint, pass_mark smallint)`,
      [JSON.stringify(sessions)],
    );
    await tx.query(
      `insert into files (id, kind, original_name, mime_type, size, storage_key, state, owner_id,
                          created_at)
       select id, 'evidence-image', 'capture.png', 'image/png', size, storage_key, 'saved',
              owner_id, created_at
         from jsonb_to_recordset($1::jsonb) as x(id uuid, size integer, storage_key text,
           owner_id uuid, created_at timestamptz)
       on conflict (storage_key) do nothing`,
      [JSON.stringify(files)],
    );
    await tx.query(
      `insert into evidence (session_uuid, position, practice_activity, image_file_id,
         evidence_data, analysis_status_id, analysis, analysed_at, created_at, score)
       select session_uuid, position, practice_activity, image_file_id, evidence_data,
              analysis_status_id, analysis, analysed_at, created_at, score
         from jsonb_to_recordset($1::jsonb) as x(session_uuid uuid, position integer,
           practice_activity text, image_file_id uuid, evidence_data jsonb,
           analysis_status_id integer, analysis text, analysed_at timestamptz,
           created_at timestamptz, score numeric)`,
      [JSON.stringify(evidence)],
    );
    await tx.query(
      `insert into evidence_marks (evidence_id, criterion, mark, max, reason, value, limit_value)
       select e.id, x.criterion, x.mark, x.max, x.reason, x.value, x.limit_value
         from jsonb_to_recordset($1::jsonb) as x(session_uuid uuid, position integer,
           criterion text, mark numeric, max numeric, reason text, value double precision,
           limit_value double precision)
         join evidence e on e.session_uuid = x.session_uuid and e.position = x.position`,
      [JSON.stringify(marks)],
    );
  });
}

/**
 * Seeds the demo activity once; answers what it wrote. Safe to call on every start and from
 * several processes: only the one holding the claim writes, and a finished seed never runs again.
 */
export async function seedDemoActivity(
  db: Db,
  storage: Storage,
  options: DemoActivityOptions = {},
): Promise<DemoActivityResult> {
  const now = options.now ?? new Date();
  if (!(await claim(db))) return NOTHING;

  const learners = await seedPeople(db, now);
  const leafRows = await db.query<LeafRow>(
    `select c.id, c.product_id, p.code as product_code, c.display_name,
            c.simulation_configuration as configuration
       from product_categories c join products p on p.id = c.product_id
      where c.simulation_configuration is not null
      order by c.id`,
  );
  const leaves = new Map<string, LeafRow>();
  for (const row of leafRows.rows) if (!leaves.has(row.configuration)) leaves.set(row.configuration, row);
  const offers = await offersOf(db, learners, isoDate(now));
  const plans = planReports(learners, offers, leaves, now);

  // Batches an earlier, interrupted run already wrote (a batch is all or nothing).
  const existing = await db.query<{ uuid: string }>(
    'select uuid from simulation_sessions where uuid = any($1::uuid[])',
    [plans.map((p) => p.uuid)],
  );
  const written = new Set(existing.rows.map((r) => r.uuid));
  const todo = plans.filter((p) => !written.has(p.uuid));

  // Each leaf's configuration's marking scheme (configuration names are unique per product
  // whatever their case, and the catalogue's leaf keys name their product).
  const schemeRows = await db.query<{ name: string; marking_scheme: MarkingScheme }>(
    `select lower(configuration_name) as name, marking_scheme from product_configurations
      where marking_scheme is not null`,
  );
  const schemes = new Map(schemeRows.rows.map((r) => [r.name, r.marking_scheme]));
  const pool = pooledRenderer();
  const result: DemoActivityResult = { ...NOTHING, seeded: true, learners: learners.length };
  for (let from = 0; from < todo.length; from += BATCH) {
    if (options.signal?.aborted) return { ...result, seeded: false, rendered: pool.size(), renderMs: pool.ms() };
    const sessions: SessionRecord[] = [];
    const files: FileRecord[] = [];
    const evidence: EvidenceRecord[] = [];
    const marks: MarkRecord[] = [];
    for (const plan of todo.slice(from, from + BATCH)) {
      const scheme = schemes.get(plan.leaf.configuration.toLowerCase()) ?? null;
      const records = await recordsOf(plan, storage, pool.render, now, scheme);
      sessions.push(records.session);
      files.push(...records.files);
      evidence.push(...records.evidence);
      marks.push(...records.marks);
    }
    await writeBatch(db, sessions, files, evidence, marks);
    result.reports += sessions.length;
    result.evidence += evidence.length;
    result.images += files.length;
    options.onProgress?.(result.reports, todo.length);
  }

  await db.query("update demo_seeds set state = 'done', done_at = now() where name = $1", [DEMO_ACTIVITY_SEED]);
  return { ...result, rendered: pool.size(), renderMs: pool.ms() };
}
