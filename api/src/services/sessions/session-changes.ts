import type {
  CompleteSessionBody,
  SessionStatus,
  SessionStatusValue,
  SimulatorSession,
} from '@portal/contract';
import { enqueueLtiScore } from '../../lti/grade-passback';
import {
  createSessionRepository,
  type OwnedSessionKey,
  type TokenLifetime,
  type Transition,
} from '../../repositories/session-repository';
import type { Queryable } from '../../db/driver';
import { createMarkingRepository } from '../../repositories/marking-repository';
import { runSingleWrite, runUnitOfWork, type UnitOfWork } from '../unit-of-work';
import type { SessionDeps } from './deps';

/**
 * The status changes of a session after its creation, each one unit of work that drops the
 * changed session's polled status once committed. A join, a close and a learner's completion are
 * one statement each and run without a transaction (`runSingleWrite`).
 */

/**
 * Once committed, the session's polled status moves to what the change made of it (its next poll
 * is answered from memory, not the database); when the change was refused, whatever is held is
 * dropped, as another process may have changed it.
 */
function afterChange(
  deps: SessionDeps,
  uow: UnitOfWork,
  uuid: string,
  status: SessionStatusValue | null,
) {
  uow.afterCommit(() =>
    status === null
      ? deps.sessionStatuses.forget([uuid])
      : deps.sessionStatuses.advance([{ uuid, status }]),
  );
}

/** The simulator starts (or, after a restart, resumes) the session. */
export function joinSession(
  deps: SessionDeps,
  uuid: string,
): Promise<Transition<SimulatorSession>> {
  return runSingleWrite(deps.db, async (uow) => {
    const result = await createSessionRepository(uow.q).join(uuid);
    afterChange(deps, uow, uuid, result.ok ? result.value.status : null);
    return result;
  });
}

/** The learner ends a session the simulator never completed (e.g. it crashed). */
export function completeSessionByOwner(
  deps: SessionDeps,
  key: OwnedSessionKey,
): Promise<Transition<SessionStatus>> {
  return runSingleWrite(deps.db, async (uow) => {
    const result = await createSessionRepository(uow.q).completeByOwner(key);
    afterChange(deps, uow, key.uuid, result.ok ? result.value.status : null);
    return result;
  });
}

/**
 * The simulator finishes the session. A session launched from a learning platform with grade
 * passback and a computed score (its marked images; the simulator's own score is only kept as
 * `reported_score`) gets its grade's outbox item in the same transaction (never one without the
 * other), or, while images wait for marking, from the last marking: the score when its grades are
 * released automatically, else a pending result until an educator releases it. The outbox worker
 * is kicked once both are committed.
 */
export function completeSessionBySimulator(
  deps: SessionDeps & { outboxWorker: { kick(): void } },
  uuid: string,
  reportDetails: CompleteSessionBody['reportDetails'],
): Promise<Transition<SessionStatus>> {
  return runUnitOfWork(deps.db, async (uow) => {
    const result = await createSessionRepository(uow.q).completeBySimulator(uuid, reportDetails);
    afterChange(deps, uow, uuid, result.ok ? result.value.status : null);
    if (!result.ok) return result;
    const { fromLaunch, ...status } = result.value;
    if (fromLaunch && (await enqueueCompletionGrade(uow.q, uuid))) {
      uow.afterCommit(() => deps.outboxWorker.kick());
    }
    return { ok: true, value: status };
  });
}

/**
 * The grade a completion sends: per the release policy, the score or a pending result. While an
 * image of the session still waits for marking (mark-evidence.ts) there is no final score: the
 * grade is left to the last marking, which calls this again in its transaction. The session's
 * row is locked by then (the completion's update, the marking's lock), so exactly one of them
 * queues it. Answers whether an item was queued.
 */
export async function enqueueCompletionGrade(tx: Queryable, uuid: string): Promise<boolean> {
  const marking = createMarkingRepository(tx);
  if (await marking.hasImagesWaiting(uuid)) {
    await marking.awaitMarkingForGrade(uuid);
    return false;
  }
  const awaitsReview = (await marking.releasePolicy(uuid)) === 'after_review';
  const queued = await enqueueLtiScore(tx, uuid, awaitsReview ? 'PendingManual' : 'FullyGraded');
  if (queued && awaitsReview) await marking.markPending(uuid);
  else if (queued) await marking.markReleased(uuid, null);
  return queued;
}

/** Closing twice answers the same; the first close time is kept. */
export function closeSession(deps: SessionDeps, key: OwnedSessionKey) {
  return runSingleWrite(deps.db, async (uow) => {
    const result = await createSessionRepository(uow.q).close(key);
    afterChange(deps, uow, key.uuid, result?.status ?? null);
    return result;
  });
}

/** Closes open sessions whose tokens expired (one statement); answers their uuids. */
export function closeExpiredSessions(
  deps: SessionDeps,
  lifetime: TokenLifetime,
): Promise<string[]> {
  return runUnitOfWork(deps.db, async (uow) => {
    const uuids = await createSessionRepository(uow.q).closeExpired(lifetime);
    uow.afterCommit(() =>
      deps.sessionStatuses.advance(uuids.map((uuid) => ({ uuid, status: 'closed' }))),
    );
    return uuids;
  });
}

/** The launch screen polls this every second: from memory while fresh, else one lookup. */
export async function pollSessionStatus(
  deps: SessionDeps,
  key: OwnedSessionKey,
): Promise<SessionStatus | null> {
  const status = await deps.sessionStatuses.read(key, deps.sessionStatusLoads);
  return status === null ? null : { uuid: key.uuid, status };
}
