import type {
  CriterionMark,
  EvidenceData,
  GradeReleasePolicy,
  ImageMarks,
  MarkingScheme,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import type { ImageToScore } from '../marking/session-score';
import { prepared } from '../db/prepared';

export interface ImageToMark {
  awaitsGrade: boolean;
  image: { practiceActivity: string; evidenceData: EvidenceData; earlierAttempts: number } | null;
  scheme: MarkingScheme | null;
}

/** An image of the session as the unlocked read saw it: what `finish_marking` checks again. */
export interface SeenImage extends ImageToScore {
  id: number;
}

/** What a marking needs, read without a lock, with the session's images for its score. */
export interface MarkingSnapshot extends ImageToMark {
  images: SeenImage[];
}

/** Marks and the session's score for `finish_marking` (migration 0045). */
export interface FinishMarking {
  sessionUuid: string;
  evidenceId: number;
  marks: ImageMarks | null;
  /** The session's images the score was computed from, in capture order. */
  seen: readonly SeenImage[];
  sessionScore: number | null;
  passMark: number | null;
  /** The outbox item done with the marking, and its note. */
  itemId: number;
  note: string | null;
}

/** save_marking's marks parameters ($3–$10 of both functions). */
function marksParams(marks: ImageMarks | null): unknown[] {
  const c = marks?.criteria ?? [];
  return [
    marks !== null,
    marks?.score ?? null,
    c.map((m) => m.criterion),
    c.map((m) => m.mark),
    c.map((m) => m.max),
    c.map((m) => m.reason),
    c.map((m) => m.value),
    c.map((m) => m.limit),
  ];
}

const numberOrNull = (value: string | number | null) => (value === null ? null : Number(value));

/** A criterion's mark as stored (`marksOf`, and the report read's JSON of it). */
export interface MarkRow {
  criterion: CriterionMark['criterion'];
  mark: string | number | null;
  max: string | number;
  reason: CriterionMark['reason'];
  value: number | null;
  limit_value: number | null;
}

export const toCriterionMark = (r: MarkRow): CriterionMark => ({
  criterion: r.criterion,
  mark: numberOrNull(r.mark),
  max: Number(r.max),
  reason: r.reason,
  value: r.value,
  limit: r.limit_value,
});

/** The order criteria are shown in (the contract's), for `order by`. */
export const CRITERION_ORDER = `array_position(array['centring', 'collimation', 'kV', 'mAs', 'dose',
                                        'exposureIndex', 'repeats'], criterion)`;

/** What `imageToMark` and `markingSnapshot` read: `$1` the session, `$2` the image. */
const IMAGE_TO_MARK_COLUMNS = `s.grade_awaits_marking, e.practice_activity, e.evidence_data,
                         c.marking_scheme,
                         (select count(*)::int from evidence p
                           where p.session_uuid = s.uuid
                             and p.practice_activity = e.practice_activity
                             and p.position < e.position) as earlier_attempts`;
const IMAGE_TO_MARK_FROM = `from simulation_sessions s
                    left join evidence e
                      on e.id = $2 and e.session_uuid = s.uuid and e.marking_pending
                    left join product_configurations c
                      on c.product_id = s.product_id
                     and lower(c.configuration_name) = lower(s.configuration)
                   where s.uuid = $1`;

interface ImageToMarkRow {
  grade_awaits_marking: boolean;
  practice_activity: string | null;
  evidence_data: EvidenceData | null;
  marking_scheme: MarkingScheme | null;
  earlier_attempts: number | null;
}

function toImageToMark(row: ImageToMarkRow): ImageToMark {
  const image =
    row.practice_activity !== null && row.evidence_data !== null
      ? {
          practiceActivity: row.practice_activity,
          evidenceData: row.evidence_data,
          earlierAttempts: row.earlier_attempts ?? 0,
        }
      : null;
  return { awaitsGrade: row.grade_awaits_marking, image, scheme: row.marking_scheme };
}

/** Rows of marked images (evidence_marks, evidence.score) and the session's computed score. */
export function createMarkingRepository(q: Queryable) {
  return {
    /**
     * What one marking needs, in one statement, with the session's row locked for it (the
     * completion locks it too, so a completion either sees the image still waiting or sees it
     * marked: never neither). Null: the session is gone. `image` null: it no longer waits for
     * its marking (marked already, or gone). `scheme`: the marking scheme of the configuration
     * the session was launched with, as it is now; `earlierAttempts`: the images of the same
     * projection taken before it in the session.
     */
    async imageToMark(sessionUuid: string, evidenceId: number): Promise<ImageToMark | null> {
      const res = await q.query<ImageToMarkRow>(
        prepared(`select ${IMAGE_TO_MARK_COLUMNS} ${IMAGE_TO_MARK_FROM} for update of s`),
        [sessionUuid, evidenceId],
      );
      const row = res.rows[0];
      return row ? toImageToMark(row) : null;
    },

    /**
     * `imageToMark`'s answer without the lock, plus the session's images (id, projection, score,
     * waiting) in capture order: the outbox worker's first statement of a marking, the second
     * being `finishMarking`, which checks under the lock that nothing of it changed.
     */
    async markingSnapshot(
      sessionUuid: string,
      evidenceId: number,
    ): Promise<MarkingSnapshot | null> {
      const res = await q.query<
        ImageToMarkRow & {
          images: Array<{
            id: number;
            projection: string;
            score: string | number | null;
            pending: boolean;
          }>;
        }
      >(
        prepared(`select ${IMAGE_TO_MARK_COLUMNS},
                         (select coalesce(json_agg(json_build_object(
                                   'id', a.id, 'projection', a.practice_activity,
                                   'score', a.score, 'pending', a.marking_pending)
                                   order by a.position), '[]')
                            from evidence a where a.session_uuid = s.uuid) as images
                    ${IMAGE_TO_MARK_FROM}`),
        [sessionUuid, evidenceId],
      );
      const row = res.rows[0];
      if (!row) return null;
      return {
        ...toImageToMark(row),
        images: row.images.map((i) => ({
          id: i.id,
          projection: i.projection,
          score: numberOrNull(i.score),
          pending: i.pending,
        })),
      };
    },

    /**
     * Writes a marking computed from `markingSnapshot` in one statement (migration 0045's
     * `finish_marking`): 'marked', or 'fallback' with nothing written when the session's images
     * changed since the read or the marking must queue a completion's grade.
     */
    async finishMarking(m: FinishMarking): Promise<'marked' | 'fallback'> {
      const res = await q.query<{ outcome: 'marked' | 'fallback' }>(
        prepared(`select finish_marking($1::uuid, $2::integer, $3::boolean, $4::numeric,
                    $5::text[], $6::numeric[], $7::numeric[], $8::text[], $9::float8[],
                    $10::float8[], $11::integer[], $12::boolean[], $13::numeric[],
                    $14::smallint, $15::smallint, $16::bigint, $17::text) as outcome`),
        [
          m.sessionUuid,
          m.evidenceId,
          ...marksParams(m.marks),
          m.seen.map((i) => i.id),
          m.seen.map((i) => i.pending),
          m.seen.map((i) => i.score),
          m.sessionScore,
          m.passMark,
          m.itemId,
          m.note,
        ],
      );
      return res.rows[0]?.outcome ?? 'fallback';
    },

    /**
     * The image's marks and score (null: it stays without marks, its scheme is gone or marking
     * gave up); it no longer waits for marking. Answers every image of the session after the
     * write, for the session's score. One statement (migration 0044's `save_marking`).
     */
    async saveMarking(
      sessionUuid: string,
      evidenceId: number,
      marks: ImageMarks | null,
    ): Promise<ImageToScore[]> {
      const res = await q.query<{
        projection: string;
        image_score: string | number | null;
        pending: boolean;
      }>(
        prepared(`select projection, image_score, pending
          from save_marking($1::uuid, $2::integer, $3::boolean, $4::numeric, $5::text[],
                            $6::numeric[], $7::numeric[], $8::text[], $9::float8[], $10::float8[])`),
        [sessionUuid, evidenceId, ...marksParams(marks)],
      );
      return res.rows.map((r) => ({
        projection: r.projection,
        score: numberOrNull(r.image_score),
        pending: r.pending,
      }));
    },

    /** Each image's projection, score and whether it still waits, for the session's score. */
    async scoredImages(sessionUuid: string): Promise<ImageToScore[]> {
      const res = await q.query<{
        projection: string;
        score: string | number | null;
        pending: boolean;
      }>(
        `select practice_activity as projection, score, marking_pending as pending from evidence
          where session_uuid = $1 order by position`,
        [sessionUuid],
      );
      return res.rows.map((r) => ({
        projection: r.projection,
        score: r.score === null ? null : Number(r.score),
        pending: r.pending,
      }));
    },

    /** `passMark` null keeps the one the session has (a marking without a scheme sets none). */
    async setSessionScore(sessionUuid: string, score: number | null, passMark: number | null) {
      await q.query(
        prepared(`update simulation_sessions set score = $2, pass_mark = coalesce($3, pass_mark)
          where uuid = $1`),
        [sessionUuid, score, passMark],
      );
    },

    async hasImagesWaiting(sessionUuid: string): Promise<boolean> {
      const res = await q.query(
        'select 1 from evidence where session_uuid = $1 and marking_pending limit 1',
        [sessionUuid],
      );
      return res.rows.length > 0;
    },

    /** The completion's grade waits for the last marking (completion's transaction). */
    async awaitMarkingForGrade(sessionUuid: string): Promise<void> {
      await q.query('update simulation_sessions set grade_awaits_marking = true where uuid = $1', [
        sessionUuid,
      ]);
    },

    /**
     * Takes over the completion's grade once the last image is marked: answers whether it was
     * waiting, and clears the flag in the caller's transaction, so only one marking queues it.
     */
    async takeGradeAwaitingMarking(sessionUuid: string): Promise<boolean> {
      const res = await q.query(
        `update simulation_sessions set grade_awaits_marking = false
          where uuid = $1 and grade_awaits_marking`,
        [sessionUuid],
      );
      return (res.rowCount ?? 0) > 0;
    },

    /** The marks of these evidence ids, criteria in the contract's order. */
    async marksOf(evidenceIds: readonly number[]): Promise<Map<number, CriterionMark[]>> {
      const marks = new Map<number, CriterionMark[]>();
      if (evidenceIds.length === 0) return marks;
      const res = await q.query<MarkRow & { evidence_id: number }>(
        `select evidence_id, criterion, mark, max, reason, value, limit_value
           from evidence_marks where evidence_id = any($1::int[])
          order by evidence_id, ${CRITERION_ORDER}`,
        [evidenceIds],
      );
      for (const r of res.rows) {
        const list = marks.get(r.evidence_id) ?? [];
        list.push(toCriterionMark(r));
        marks.set(r.evidence_id, list);
      }
      return marks;
    },

    /**
     * Records that the session's grade goes to the platform now: by an educator (`by`), or
     * automatically on completion (null). Only a scored, not yet released session; answers
     * whether it was one.
     */
    async markReleased(sessionUuid: string, by: string | null): Promise<boolean> {
      const res = await q.query(
        `update simulation_sessions set grade_released_at = now(), grade_released_by = $2
          where uuid = $1 and score is not null and grade_released_at is null`,
        [sessionUuid, by],
      );
      return (res.rowCount ?? 0) > 0;
    },

    /**
     * An educator releases a pending grade: only a scored session whose platform holds a
     * pending result. Answers the score released, null when there was none to release.
     */
    async releasePending(sessionUuid: string, by: string): Promise<number | null> {
      const res = await q.query<{ score: number }>(
        `update simulation_sessions set grade_released_at = now(), grade_released_by = $2
          where uuid = $1 and score is not null and grade_pending_since is not null
            and grade_released_at is null
          returning score`,
        [sessionUuid, by],
      );
      return res.rows[0]?.score ?? null;
    },

    /** The platform holds a pending result of the session: its grade awaits a release. */
    async markPending(sessionUuid: string): Promise<void> {
      await q.query('update simulation_sessions set grade_pending_since = now() where uuid = $1', [
        sessionUuid,
      ]);
    },

    /**
     * Whether grades of this session wait for an educator: its launch's course's override, else
     * the learner's organisation's policy.
     */
    async releasePolicy(sessionUuid: string): Promise<GradeReleasePolicy> {
      const res = await q.query<{ policy: GradeReleasePolicy }>(
        `select coalesce(c.grade_release, o.grade_release, 'automatic') as policy
           from simulation_sessions s
           join users u on u.id = s.user_id
           left join organisations o on o.id = u.organisation_id
           left join lti_launches l
             on l.id = case when s.lti_launch_id ~* '^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$'
                            then s.lti_launch_id::uuid end
           left join lti_courses c on c.id = l.course_id
          where s.uuid = $1`,
        [sessionUuid],
      );
      return res.rows[0]?.policy ?? 'automatic';
    },
  };
}

export type MarkingRepository = ReturnType<typeof createMarkingRepository>;
