import type {
  FeedbackComment,
  MarkingCriterion,
  MarkOverride,
  UserNotification,
} from '@portal/contract';
import type { Queryable } from '../db/driver';

/** Who wrote feedback: kept by id and, for after the account is gone, by name. */
export interface FeedbackAuthor {
  id: string;
  name: string;
}

export interface CommentRow {
  comment: string;
  author_name: string;
  updated_at: Date | string;
}

/** An overridden criterion as stored (`overrides`, and the report read's JSON of it). */
export interface OverrideRow {
  criterion: MarkingCriterion;
  original_mark: string | number | null;
  mark: string | number;
  override_reason: string;
  overridden_by_name: string;
  overridden_at: Date | string;
}

/** One criterion of one image as an override needs it. */
export interface CriterionRow {
  mark: number | null;
  max: number;
  originalMark: number | null;
  overridden: boolean;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const num = (value: string | number | null) => (value === null ? null : Number(value));
export const toComment = (r: CommentRow): FeedbackComment => ({
  comment: r.comment,
  authorName: r.author_name,
  updatedAt: iso(r.updated_at),
});

export const toOverride = (r: OverrideRow): MarkOverride => ({
  criterion: r.criterion,
  originalMark: num(r.original_mark),
  mark: Number(r.mark),
  reason: r.override_reason,
  authorName: r.overridden_by_name,
  updatedAt: iso(r.overridden_at),
});

/** Educator feedback (migration 0033): comments, mark overrides and the learner's notifications. */
export function createFeedbackRepository(q: Queryable) {
  return {
    /**
     * Sets (or, with null, clears) an image's comment. Answers the comment it replaced, for the
     * audit entry; undefined when the image is not in the report.
     */
    async setEvidenceComment(
      sessionUuid: string,
      evidenceId: number,
      comment: string | null,
      author: FeedbackAuthor,
    ): Promise<{ before: string | null } | undefined> {
      const exists = await q.query<{ before: string | null }>(
        `select f.comment as before
           from evidence e left join evidence_feedback f on f.evidence_id = e.id
          where e.session_uuid = $1 and e.id = $2
          for update of e`,
        [sessionUuid, evidenceId],
      );
      const row = exists.rows[0];
      if (!row) return undefined;
      if (comment === null) {
        await q.query('delete from evidence_feedback where evidence_id = $1', [evidenceId]);
      } else {
        await q.query(
          `insert into evidence_feedback (evidence_id, comment, author_id, author_name)
           values ($1, $2, $3, $4)
           on conflict (evidence_id) do update
             set comment = excluded.comment, author_id = excluded.author_id,
                 author_name = excluded.author_name, updated_at = now()`,
          [evidenceId, comment, author.id, author.name],
        );
      }
      return { before: row.before };
    },

    /** Sets (or clears) the report's comment; answers the one it replaced. */
    async setReportComment(
      sessionUuid: string,
      comment: string | null,
      author: FeedbackAuthor,
    ): Promise<string | null> {
      const before = await q.query<{ comment: string }>(
        'select comment from report_feedback where session_uuid = $1',
        [sessionUuid],
      );
      if (comment === null) {
        await q.query('delete from report_feedback where session_uuid = $1', [sessionUuid]);
      } else {
        await q.query(
          `insert into report_feedback (session_uuid, comment, author_id, author_name)
           values ($1, $2, $3, $4)
           on conflict (session_uuid) do update
             set comment = excluded.comment, author_id = excluded.author_id,
                 author_name = excluded.author_name, updated_at = now()`,
          [sessionUuid, comment, author.id, author.name],
        );
      }
      return before.rows[0]?.comment ?? null;
    },

    /** A criterion of an image of this report, locked; null when the image has no such mark. */
    async lockCriterion(
      sessionUuid: string,
      evidenceId: number,
      criterion: MarkingCriterion,
    ): Promise<CriterionRow | null> {
      const res = await q.query<{
        mark: string | number | null;
        max: string | number;
        original_mark: string | number | null;
        overridden: boolean;
      }>(
        `select m.mark, m.max, m.original_mark, m.override_reason is not null as overridden
           from evidence_marks m join evidence e on e.id = m.evidence_id
          where e.session_uuid = $1 and m.evidence_id = $2 and m.criterion = $3
          for update of m`,
        [sessionUuid, evidenceId, criterion],
      );
      const r = res.rows[0];
      if (!r) return null;
      return {
        mark: num(r.mark),
        max: Number(r.max),
        originalMark: num(r.original_mark),
        overridden: r.overridden,
      };
    },

    /** Replaces a criterion's mark, keeping the marking's own in `original_mark` the first time. */
    async overrideMark(
      evidenceId: number,
      criterion: MarkingCriterion,
      mark: number,
      reason: string,
      author: FeedbackAuthor,
    ): Promise<void> {
      await q.query(
        `update evidence_marks
            set original_mark = case when override_reason is null then mark else original_mark end,
                mark = $3, override_reason = $4, overridden_by = $5, overridden_by_name = $6,
                overridden_at = now()
          where evidence_id = $1 and criterion = $2`,
        [evidenceId, criterion, mark, reason, author.id, author.name],
      );
    },

    /** Gives the criterion the marking's own mark back. */
    async clearOverride(evidenceId: number, criterion: MarkingCriterion): Promise<void> {
      await q.query(
        `update evidence_marks
            set mark = original_mark, original_mark = null, override_reason = null,
                overridden_by = null, overridden_by_name = null, overridden_at = null
          where evidence_id = $1 and criterion = $2 and override_reason is not null`,
        [evidenceId, criterion],
      );
    },

    async setImageScore(evidenceId: number, score: number | null): Promise<void> {
      await q.query('update evidence set score = $2 where id = $1', [evidenceId, score]);
    },

    /** The session's score only: its pass mark stays the one it was marked with. */
    async setSessionScore(sessionUuid: string, score: number | null): Promise<void> {
      await q.query('update simulation_sessions set score = $2 where uuid = $1', [
        sessionUuid,
        score,
      ]);
    },

    /** The texts that go to the learning platform with the score: report's, then each image's. */
    async commentTexts(
      sessionUuid: string,
    ): Promise<{ report: string | null; images: Array<{ projection: string; comment: string }> }> {
      const res = await q.query<{ projection: string | null; comment: string }>(
        `select null as projection, comment, -1 as position
           from report_feedback where session_uuid = $1
         union all
         select e.practice_activity, f.comment, e.position
           from evidence e join evidence_feedback f on f.evidence_id = e.id
          where e.session_uuid = $1
          order by position`,
        [sessionUuid],
      );
      return {
        report: res.rows.find((r) => r.projection === null)?.comment ?? null,
        images: res.rows
          .filter((r): r is { projection: string; comment: string } => r.projection !== null)
          .map((r) => ({ projection: r.projection, comment: r.comment })),
      };
    },

    /** Tells the learner about new feedback: one unread notification per report, refreshed. */
    async notifyFeedback(userId: string, sessionUuid: string): Promise<void> {
      await q.query(
        `insert into user_notifications (user_id, kind, session_uuid)
         values ($1, 'report_feedback', $2)
         on conflict (user_id, kind, session_uuid) where read_at is null
         do update set created_at = now()`,
        [userId, sessionUuid],
      );
    },

    /** The user's notifications, newest first (the last 50). */
    async listMine(userId: string): Promise<UserNotification[]> {
      const res = await q.query<{
        id: string | number;
        kind: 'report_feedback';
        session_uuid: string;
        report_name: string;
        created_at: Date | string;
        read_at: Date | string | null;
      }>(
        `select n.id, n.kind, n.session_uuid, coalesce(c.display_name, s.configuration) as report_name,
                n.created_at, n.read_at
           from user_notifications n
           join simulation_sessions s on s.uuid = n.session_uuid
           left join product_categories c on c.id = s.category_id
          where n.user_id = $1
          order by n.created_at desc, n.id desc
          limit 50`,
        [userId],
      );
      return res.rows.map((r) => ({
        id: Number(r.id),
        kind: r.kind,
        reportId: r.session_uuid,
        reportName: r.report_name,
        createdAt: iso(r.created_at),
        read: r.read_at !== null,
      }));
    },

    /** Marks the user's notification read; false when it is not theirs. */
    async markRead(userId: string, id: number): Promise<boolean> {
      const res = await q.query(
        `update user_notifications set read_at = coalesce(read_at, now())
          where id = $1 and user_id = $2`,
        [id, userId],
      );
      return (res.rowCount ?? 0) > 0;
    },
  };
}

export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
