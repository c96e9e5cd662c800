import type { LtiErrorCode } from '@portal/contract';
import type { Db } from '../../db/driver';
import { requestBrokerLink } from '../../lti/broker/account-link';
import { recordLaunchCourse } from '../../lti/nrps-course';
import { linkPlatformUser } from '../../lti/platform-user';
import { createLtiRepository } from '../../repositories/lti-repository';
import type { ValidLaunch } from '../../repositories/lti-types';
import { runUnitOfWork } from '../unit-of-work';

export type RecordedLaunch =
  | { ok: true; launchId: string; userId: string }
  | { ok: false; error: LtiErrorCode; reason: string };

export interface RecordLaunchDeps {
  db: Db;
  /** With a broker, the launched user's identity account gets linked to it (issue #22 point 1). */
  config: { ltiBroker: { alias: string } | null };
  outboxWorker: { kick(): void };
  authUsers: { forget(id: string): void };
}

class Refused extends Error {
  constructor(readonly outcome: { ok: false; error: LtiErrorCode; reason: string }) {
    super(outcome.reason);
  }
}

/**
 * Links the platform's user to a portal user and records the launch, in one unit of work: a
 * refusal leaves nothing behind. Once committed, a new account (and, with the launch sign-in
 * broker, its link to it) goes to the identity provider (outbox kick) and whoami forgets the user, so its Brightspace check sees this launch at once.
 */
export async function recordLtiLaunch(
  deps: RecordLaunchDeps,
  launch: ValidLaunch,
): Promise<RecordedLaunch> {
  try {
    return await runUnitOfWork(deps.db, async (uow) => {
      const linked = await linkPlatformUser(uow.q, launch);
      if (!linked.ok) throw new Refused(linked);
      const launchId = await createLtiRepository(uow.q).recordLaunch(launch, linked.userId);
      await recordLaunchCourse(uow.q, launch, launchId, linked.userId);
      const alias = deps.config.ltiBroker?.alias;
      const linking = alias !== undefined && (await requestBrokerLink(uow.q, linked.userId, alias));
      if (linked.created || linking) uow.afterCommit(() => deps.outboxWorker.kick());
      uow.afterCommit(() => deps.authUsers.forget(linked.userId));
      return { ok: true as const, launchId, userId: linked.userId };
    });
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    // A claim the database cannot hold (SQLSTATE 22xxx: too long, out of range): the platform's
    // message is at fault, and the browser still belongs on the error page, not a JSON 400.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('22')) {
      return { ok: false, error: 'INVALID_LTI_MESSAGE', reason: `db_${code}` };
    }
    throw error;
  }
}
