import type { Db } from '../../db/driver';
import { enqueueLtiScore } from '../../lti/grade-passback';
import { detailError, forbidden, notFound } from '../../lib/http-errors';
import { type AuditActor, createAuditRepository } from '../../repositories/audit-repository';
import { createMarkingRepository } from '../../repositories/marking-repository';
import { createReportRepository, type ReportViewer } from '../../repositories/report-repository';
import { runUnitOfWork } from '../unit-of-work';

export const RELEASE_MESSAGES = {
  notEducator: "Only an educator of the learner's organisation may release this grade.",
  nothingPending: 'This report has no grade waiting for release.',
} as const;

/**
 * An educator releases a learner's grade held for review (issue #23 point 2): the session is
 * marked released and its `FullyGraded` score enqueued for the learning platform, with an audit
 * entry, in one unit of work; the outbox worker is kicked once committed. The platform held a
 * `PendingManual` result until now.
 */
export function releaseGrade(
  deps: { db: Db; outboxWorker: { kick(): void } },
  viewer: ReportViewer & AuditActor & { id: string },
  reportId: string,
): Promise<{ score: number }> {
  return runUnitOfWork(deps.db, async (uow) => {
    const target = await createReportRepository(uow.q).lockForRelease(reportId, viewer);
    if (target === 'hidden') throw notFound();
    if (target === 'forbidden') throw forbidden(RELEASE_MESSAGES.notEducator);
    const score = await createMarkingRepository(uow.q).releasePending(reportId, viewer.id);
    if (score === null) throw detailError(409, RELEASE_MESSAGES.nothingPending);
    if (await enqueueLtiScore(uow.q, reportId, 'FullyGraded')) {
      uow.afterCommit(() => deps.outboxWorker.kick());
    }
    await createAuditRepository(uow.q).record({
      actor: viewer,
      action: 'release_grade',
      entityType: 'report',
      entityId: reportId,
      organisationId: target.organisationId,
      after: { learner: target.learner, score },
    });
    return { score };
  });
}
