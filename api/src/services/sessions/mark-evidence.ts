import type { EvidenceSubmission } from '@portal/contract';
import type { Queryable } from '../../db/driver';
import { markImage } from '../../marking/mark-image';
import { sessionScore } from '../../marking/session-score';
import { createMarkingRepository } from '../../repositories/marking-repository';

/**
 * Marks an X-ray image just stored, in the transaction that stored it (so evidence never exists
 * unmarked), and brings the session's computed score up to date. Lesson parts and sessions whose
 * configuration has no marking scheme are not marked.
 */
export async function markEvidence(
  tx: Queryable,
  sessionUuid: string,
  evidenceId: number,
  submission: EvidenceSubmission,
): Promise<void> {
  if (submission.evidenceData.meta.type !== 'xray_image') return;
  const marking = createMarkingRepository(tx);
  const scheme = await marking.schemeOfSession(sessionUuid);
  if (!scheme) return;
  const earlierAttempts = await marking.earlierAttempts(
    sessionUuid,
    submission.practiceActivity,
    evidenceId,
  );
  await marking.saveMarks(
    evidenceId,
    markImage(scheme, { evidenceData: submission.evidenceData, earlierAttempts }),
  );
  await marking.setSessionScore(
    sessionUuid,
    sessionScore(await marking.scoredImages(sessionUuid)),
    scheme.passMark,
  );
}
