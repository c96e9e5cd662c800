import type {
  CriterionMark,
  GradeReleasePolicy,
  ImageMarks,
  MarkingScheme,
} from '@portal/contract';
import type { Queryable } from '../db/driver';

/** Rows of marked images (evidence_marks, evidence.score) and the session's computed score. */
export function createMarkingRepository(q: Queryable) {
  return {
    /** The marking scheme of the configuration the session was launched with; null: none. */
    async schemeOfSession(sessionUuid: string): Promise<MarkingScheme | null> {
      const res = await q.query<{ marking_scheme: MarkingScheme | null }>(
        `select c.marking_scheme
           from simulation_sessions s
           join product_configurations c
             on c.product_id = s.product_id
            and lower(c.configuration_name) = lower(s.configuration)
          where s.uuid = $1`,
        [sessionUuid],
      );
      return res.rows[0]?.marking_scheme ?? null;
    },

    /**
     * Other images of the same projection in the session: all earlier, as marking runs in the
     * transaction that inserted `evidenceId` under the session's row lock.
     */
    async earlierAttempts(
      sessionUuid: string,
      practiceActivity: string,
      evidenceId: number,
    ): Promise<number> {
      const res = await q.query<{ count: number }>(
        `select count(*)::int as count from evidence
          where session_uuid = $1 and practice_activity = $2 and id <> $3`,
        [sessionUuid, practiceActivity, evidenceId],
      );
      return res.rows[0]?.count ?? 0;
    },

    async saveMarks(evidenceId: number, marks: ImageMarks): Promise<void> {
      for (const c of marks.criteria) {
        await q.query(
          `insert into evidence_marks (evidence_id, criterion, mark, max, reason, value, limit_value)
           values ($1, $2, $3, $4, $5, $6, $7)`,
          [evidenceId, c.criterion, c.mark, c.max, c.reason, c.value, c.limit],
        );
      }
      await q.query('update evidence set score = $2 where id = $1', [evidenceId, marks.score]);
    },

    /** Each image's projection and score, for the session's score. */
    async scoredImages(
      sessionUuid: string,
    ): Promise<Array<{ projection: string; score: number | null }>> {
      const res = await q.query<{ projection: string; score: string | number | null }>(
        `select practice_activity as projection, score from evidence
          where session_uuid = $1 order by position`,
        [sessionUuid],
      );
      return res.rows.map((r) => ({
        projection: r.projection,
        score: r.score === null ? null : Number(r.score),
      }));
    },

    async setSessionScore(sessionUuid: string, score: number | null, passMark: number | null) {
      await q.query('update simulation_sessions set score = $2, pass_mark = $3 where uuid = $1', [
        sessionUuid,
        score,
        passMark,
      ]);
    },

    /** The marks of these evidence ids, criteria in the contract's order. */
    async marksOf(evidenceIds: readonly number[]): Promise<Map<number, CriterionMark[]>> {
      const marks = new Map<number, CriterionMark[]>();
      if (evidenceIds.length === 0) return marks;
      const res = await q.query<{
        evidence_id: number;
        criterion: CriterionMark['criterion'];
        mark: string | number | null;
        max: string | number;
        reason: CriterionMark['reason'];
        value: number | null;
        limit_value: number | null;
      }>(
        `select evidence_id, criterion, mark, max, reason, value, limit_value
           from evidence_marks where evidence_id = any($1::int[])
          order by evidence_id,
                   array_position(array['centring', 'collimation', 'kV', 'mAs', 'dose',
                                        'exposureIndex', 'repeats'], criterion)`,
        [evidenceIds],
      );
      for (const r of res.rows) {
        const list = marks.get(r.evidence_id) ?? [];
        list.push({
          criterion: r.criterion,
          mark: r.mark === null ? null : Number(r.mark),
          max: Number(r.max),
          reason: r.reason,
          value: r.value,
          limit: r.limit_value,
        });
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
