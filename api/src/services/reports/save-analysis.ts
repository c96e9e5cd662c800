import type { AnalysisBody, Evidence } from '@portal/contract';
import type { Db } from '../../db/driver';
import { createReportRepository } from '../../repositories/report-repository';
import { runUnitOfWork } from '../unit-of-work';

/**
 * The report owner's analysis of one evidence item (the route has checked the owner). null when
 * the evidence is not the report's.
 */
export function saveAnalysis(
  deps: { db: Db },
  reportId: string,
  evidenceId: number,
  body: AnalysisBody,
): Promise<Evidence | null> {
  return runUnitOfWork(deps.db, (uow) =>
    createReportRepository(uow.q).saveAnalysis(reportId, evidenceId, body),
  );
}
