import type { Db } from '../../db/driver';
import { markImage } from '../../marking/mark-image';
import { finalSessionScore } from '../../marking/session-score';
import type { OutboxKind, OutboxLog } from '../../outbox/handler-registry';
import { createMarkingRepository } from '../../repositories/marking-repository';
import {
  createOutboxRepository,
  type ClaimedItem,
  type OutboxItem,
} from '../../repositories/outbox-repository';
import { runUnitOfWork } from '../unit-of-work';
import { enqueueCompletionGrade } from './session-changes';

/**
 * Marking of X-ray images (issue #23) after the upload's answer (issue #24 point 5): marking
 * inside the upload held a pool connection and the event loop for its marking scheme, repeat
 * count, score re-derivation and insight triggers, and every poll queued behind it. The upload
 * now stores the image flagged `marking_pending` and a `mark-evidence` outbox item in its
 * transaction (`queueMarking`); the outbox worker marks it (`markEvidenceKinds`), once per item
 * however many instances run.
 *
 * What stays true: the session's score is derived from marked images only, and while any image
 * waits it has none (`finalSessionScore`), so a report shows no score and no grade goes to a
 * learning platform. A simulator's completion during that time leaves its grade to the last
 * marking (`grade_awaits_marking`), which queues it in the same transaction as its marks: the
 * grade is posted once, after marking, with the score of all images.
 */
export const MARK_EVIDENCE_KIND = 'mark-evidence';

/**
 * Marking is pure and local; an item that keeps failing is a bug or bad data, not an outage.
 * After this many attempts the image is left unmarked (it counts for nothing, as an image of an
 * unmarked configuration), so the session's score and grade are not held back for ever.
 */
export const MARK_EVIDENCE_MAX_ATTEMPTS = 10;

export interface MarkEvidencePayload {
  sessionUuid: string;
  evidenceId: number;
}

/**
 * The item that marks an image of `sessionUuid`, as the upload's statement queues it with the
 * image (`add_evidence`, migration 0043, adds `evidenceId`). Its key is the session, so a
 * session's images are marked in upload order (the repeats criterion counts earlier images).
 */
export function markingItem(sessionUuid: string): OutboxItem {
  const payload: Omit<MarkEvidencePayload, 'evidenceId'> = { sessionUuid };
  return { kind: MARK_EVIDENCE_KIND, key: `mark-evidence:${sessionUuid}`, payload };
}

export interface MarkEvidenceOptions {
  db: Db;
  log: OutboxLog;
  /** Looks for work again once a marking queued a grade. */
  kick: () => void;
}

/**
 * Marks the item's image in two statements (issue #24 point 5): an unlocked read of what the
 * marking needs, then migration 0045's `finish_marking`, which locks the session, checks that its
 * images are still the ones read, and writes the marks, the image's and the session's scores and
 * the item done, all or nothing. Every pool connection is held for a turn of the busy event loop
 * per statement, and the transaction below took six. When the images changed in between, or the
 * marking must queue a completion's grade, nothing was written and the transaction does it all.
 */
async function mark(
  options: MarkEvidenceOptions,
  item: ClaimedItem,
  giveUp: string | null,
): Promise<void> {
  const { sessionUuid, evidenceId } = item.payload as unknown as MarkEvidencePayload;
  const marking = createMarkingRepository(options.db);
  const seen = await marking.markingSnapshot(sessionUuid, evidenceId);
  if (seen?.image) {
    const scheme = giveUp ? null : seen.scheme;
    const marks = scheme
      ? markImage(scheme, {
          evidenceData: seen.image.evidenceData,
          earlierAttempts: seen.image.earlierAttempts,
        })
      : null;
    // The session's images once this one is saved, as save_marking would answer them.
    const after = seen.images.map((i) =>
      i.id === evidenceId ? { ...i, score: marks ? marks.score : i.score, pending: false } : i,
    );
    const outcome = await marking.finishMarking({
      sessionUuid,
      evidenceId,
      marks,
      seen: seen.images,
      sessionScore: finalSessionScore(after),
      passMark: scheme?.passMark ?? null,
      itemId: item.id,
      note: giveUp,
    });
    if (outcome === 'marked') return;
  }
  await markInTransaction(options, item, giveUp);
}

/**
 * Marks the item's image in one transaction with its completion: the criterion marks, the image's
 * score, the session's score (once no image waits) and, when the simulator completed the session
 * while it waited, the completion's grade. A repeated item (a lease that ran out after the
 * commit) finds the image marked and does nothing.
 */
async function markInTransaction(
  options: MarkEvidenceOptions,
  item: ClaimedItem,
  giveUp: string | null,
): Promise<void> {
  const { sessionUuid, evidenceId } = item.payload as unknown as MarkEvidencePayload;
  await runUnitOfWork(options.db, async (uow) => {
    const marking = createMarkingRepository(uow.q);
    const found = await marking.imageToMark(sessionUuid, evidenceId);
    if (found?.image) {
      // The scheme as it is now: one removed since the upload marks nothing.
      const scheme = giveUp ? null : found.scheme;
      const images = await marking.saveMarking(
        sessionUuid,
        evidenceId,
        scheme
          ? markImage(scheme, {
              evidenceData: found.image.evidenceData,
              earlierAttempts: found.image.earlierAttempts,
            })
          : null,
      );
      await marking.setSessionScore(
        sessionUuid,
        finalSessionScore(images),
        scheme?.passMark ?? null,
      );
      if (
        !images.some((i) => i.pending) &&
        found.awaitsGrade &&
        (await marking.takeGradeAwaitingMarking(sessionUuid)) &&
        (await enqueueCompletionGrade(uow.q, sessionUuid))
      ) {
        uow.afterCommit(options.kick);
      }
    }
    await createOutboxRepository(uow.q).complete(item.id, {}, giveUp);
  });
}

/** The `mark-evidence` kind, for the outbox worker's registry. */
export function markEvidenceKinds(options: MarkEvidenceOptions): Record<string, OutboxKind> {
  return {
    [MARK_EVIDENCE_KIND]: {
      retryMessage: 'marking an image failed; will retry',
      async handle(item) {
        try {
          await mark(options, item, null);
        } catch (error) {
          if (item.attempts < MARK_EVIDENCE_MAX_ATTEMPTS) throw error;
          const message = error instanceof Error ? error.message : String(error);
          options.log.error(
            { outboxId: item.id, attempts: item.attempts, err: message },
            'marking an image kept failing; the image is left unmarked',
          );
          await mark(
            options,
            item,
            `given up after ${item.attempts} attempts: ${message}`.slice(0, 2000),
          );
        }
      },
    },
  };
}
