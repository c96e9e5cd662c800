import type {
  EvidenceFeedbackBody,
  MarkingCriterion,
  MarkOverrideInput,
  ReportFeedbackBody,
} from '@portal/contract';
import type { Db, Queryable } from '../../db/driver';
import { enqueueLtiScore } from '../../lti/grade-passback';
import { fieldError, forbidden, notFound } from '../../lib/http-errors';
import { imageScore } from '../../marking/mark-image';
import { finalSessionScore } from '../../marking/session-score';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import {
  createFeedbackRepository,
  type FeedbackAuthor,
} from '../../repositories/feedback-repository';
import { createMarkingRepository } from '../../repositories/marking-repository';
import { createReportRepository, type ReportViewer } from '../../repositories/report-repository';
import { runUnitOfWork, type UnitOfWork } from '../unit-of-work';

export const FEEDBACK_MESSAGES = {
  notEducator: "Only an educator of the learner's organisation may give feedback on this report.",
  noSuchImage: 'This report has no such image.',
  noSuchCriterion: 'This image has no mark for this criterion.',
  markAboveMax: (max: number) => `Must be between 0 and ${max}, the criterion's maximum.`,
  blankReason: 'Give a reason for the override.',
  duplicate: 'This criterion of this image is overridden twice.',
} as const;

type Educator = ReportViewer & AuditActor & { id: string };
interface Deps {
  db: Db;
  outboxWorker: { kick(): void };
}

/** A blank comment clears the stored one. */
const normalised = (comment: string) => (comment.trim() === '' ? null : comment.trim());
const authorOf = (user: Educator): FeedbackAuthor => ({
  id: user.id,
  name: `${user.firstName} ${user.lastName}`.trim() || user.email || '',
});

/**
 * Educator feedback on a learner's report (issue #23 point 3), each call one unit of work: the
 * report's session row is locked (as grade release does), the change audited (entity `report`),
 * the learner notified, and — when the grade was already released to the learning platform — the
 * score sent again with the new comment and any re-derived score. A grade still waiting for
 * review sends nothing now: its release carries the feedback.
 */
async function withFeedback(
  deps: Deps,
  user: Educator,
  reportId: string,
  work: (
    uow: UnitOfWork,
    target: { organisationId: number | null; learner: string },
  ) => Promise<FeedbackChange>,
): Promise<void> {
  return runUnitOfWork(deps.db, async (uow) => {
    const target = await createReportRepository(uow.q).lockForFeedback(reportId, user);
    if (target === 'hidden') throw notFound();
    if (target === 'forbidden') throw forbidden(FEEDBACK_MESSAGES.notEducator);
    const change = await work(uow, target);
    // A comment cleared is no news to the learner; anything written or overridden is.
    if (change.news) {
      await createFeedbackRepository(uow.q).notifyFeedback(target.learnerId, reportId);
    }
    if (
      change.changed &&
      target.released &&
      (await enqueueLtiScore(uow.q, reportId, 'FullyGraded', { resend: true }))
    ) {
      uow.afterCommit(() => deps.outboxWorker.kick());
    }
  });
}

/** What a call changed: anything at all, and something the learner should be told about. */
interface FeedbackChange {
  changed: boolean;
  news: boolean;
}

/** PUT /report/{id}/evidence/{evidenceId}/feedback: one image's comment. */
export function saveEvidenceFeedback(
  deps: Deps,
  user: Educator,
  reportId: string,
  evidenceId: number,
  body: EvidenceFeedbackBody,
): Promise<void> {
  return withFeedback(deps, user, reportId, async (uow, target) => {
    const comment = normalised(body.comment);
    const saved = await createFeedbackRepository(uow.q).setEvidenceComment(
      reportId,
      evidenceId,
      comment,
      authorOf(user),
    );
    if (!saved) throw notFound(FEEDBACK_MESSAGES.noSuchImage);
    if (saved.before === comment) return { changed: false, news: false };
    await createAuditRepository(uow.q).record({
      actor: user,
      action: 'give_feedback',
      entityType: 'report',
      entityId: reportId,
      organisationId: target.organisationId,
      before: { learner: target.learner, evidenceId, comment: saved.before },
      after: { learner: target.learner, evidenceId, comment },
    });
    return { changed: true, news: comment !== null };
  });
}

/** PUT /report/{id}/feedback: the report's comment and mark overrides. */
export function saveReportFeedback(
  deps: Deps,
  user: Educator,
  reportId: string,
  body: ReportFeedbackBody,
): Promise<void> {
  return withFeedback(deps, user, reportId, async (uow, target) => {
    const feedback = createFeedbackRepository(uow.q);
    const audit = createAuditRepository(uow.q);
    const commentChange = { changed: false, news: false };
    // Absent: an override alone leaves the report's comment as it is.
    if (body.comment !== undefined) {
      const comment = normalised(body.comment);
      const before = await feedback.setReportComment(reportId, comment, authorOf(user));
      if (before !== comment) {
        await audit.record({
          actor: user,
          action: 'give_feedback',
          entityType: 'report',
          entityId: reportId,
          organisationId: target.organisationId,
          before: { learner: target.learner, comment: before },
          after: { learner: target.learner, comment },
        });
        commentChange.changed = true;
        commentChange.news = comment !== null;
      }
    }
    const overrides = body.overrides ?? [];
    const changed = await applyOverrides(uow.q, reportId, overrides, authorOf(user));
    if (changed.length === 0) return commentChange;
    const scores = await rederiveScores(uow.q, reportId, [
      ...new Set(changed.map((c) => c.evidenceId)),
    ]);
    await audit.record({
      actor: user,
      action: 'override_mark',
      entityType: 'report',
      entityId: reportId,
      organisationId: target.organisationId,
      before: {
        learner: target.learner,
        marks: changed.map((c) => ({ ...c.key, mark: c.before })),
        score: scores.before,
      },
      after: {
        learner: target.learner,
        marks: changed.map((c) => ({ ...c.key, mark: c.after, reason: c.reason })),
        score: scores.after,
      },
    });
    return { changed: true, news: true };
  });
}

interface ChangedMark {
  evidenceId: number;
  key: { evidenceId: number; criterion: MarkingCriterion };
  before: number | null;
  after: number | null;
  reason: string;
}

/**
 * Checks every override against the image's stored criterion (400 naming `overrides.N.field`)
 * and applies it. A mark equal to what the marking gave removes the override.
 */
async function applyOverrides(
  q: Queryable,
  reportId: string,
  overrides: readonly MarkOverrideInput[],
  author: FeedbackAuthor,
): Promise<ChangedMark[]> {
  const feedback = createFeedbackRepository(q);
  const seen = new Set<string>();
  const changed: ChangedMark[] = [];
  for (const [index, o] of overrides.entries()) {
    const field = (name: string) => `overrides.${index}.${name}`;
    const key = `${o.evidenceId}:${o.criterion}`;
    if (seen.has(key)) throw fieldError(field('criterion'), FEEDBACK_MESSAGES.duplicate);
    seen.add(key);
    const reason = o.reason.trim();
    if (reason === '') throw fieldError(field('reason'), FEEDBACK_MESSAGES.blankReason);
    const row = await feedback.lockCriterion(reportId, o.evidenceId, o.criterion);
    if (!row) {
      const imageExists = await q.query(
        'select 1 from evidence where session_uuid = $1 and id = $2',
        [reportId, o.evidenceId],
      );
      throw imageExists.rows.length === 0
        ? fieldError(field('evidenceId'), FEEDBACK_MESSAGES.noSuchImage)
        : fieldError(field('criterion'), FEEDBACK_MESSAGES.noSuchCriterion);
    }
    if (o.mark > row.max) throw fieldError(field('mark'), FEEDBACK_MESSAGES.markAboveMax(row.max));
    const marked = row.overridden ? row.originalMark : row.mark;
    if (o.mark === marked) {
      if (!row.overridden) continue;
      await feedback.clearOverride(o.evidenceId, o.criterion);
      changed.push({
        evidenceId: o.evidenceId,
        key: { evidenceId: o.evidenceId, criterion: o.criterion },
        before: row.mark,
        after: marked,
        reason,
      });
      continue;
    }
    await feedback.overrideMark(o.evidenceId, o.criterion, o.mark, reason, author);
    changed.push({
      evidenceId: o.evidenceId,
      key: { evidenceId: o.evidenceId, criterion: o.criterion },
      before: row.mark,
      after: o.mark,
      reason,
    });
  }
  return changed;
}

/** The images' and the session's scores again, by the marking's own derivation. */
async function rederiveScores(
  q: Queryable,
  reportId: string,
  evidenceIds: readonly number[],
): Promise<{ before: number | null; after: number | null }> {
  const marking = createMarkingRepository(q);
  const feedback = createFeedbackRepository(q);
  const beforeRes = await q.query<{ score: number | null }>(
    'select score from simulation_sessions where uuid = $1',
    [reportId],
  );
  const marks = await marking.marksOf(evidenceIds);
  for (const id of evidenceIds) {
    await feedback.setImageScore(id, imageScore(marks.get(id) ?? []));
  }
  // None while an image still waits for marking (mark-evidence.ts), as marking derives it.
  const after = finalSessionScore(await marking.scoredImages(reportId));
  await feedback.setSessionScore(reportId, after);
  return { before: beforeRes.rows[0]?.score ?? null, after };
}
