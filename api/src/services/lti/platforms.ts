import type { LtiPlatform, LtiPlatformInput } from '@portal/contract';
import type { Db } from '../../db/driver';
import type { AuditActor } from '../../repositories/audit-repository';
import { createLtiRepository } from '../../repositories/lti-repository';
import { runUnitOfWork } from '../unit-of-work';

/** A global administrator registers, edits or removes a learning platform by hand (audited). */

export function createLtiPlatform(
  deps: { db: Db },
  input: LtiPlatformInput,
  actor: AuditActor,
): Promise<LtiPlatform> {
  return runUnitOfWork(deps.db, (uow) => createLtiRepository(uow.q).create(input, actor));
}

/** null when there is no such platform. */
export function updateLtiPlatform(
  deps: { db: Db },
  id: number,
  input: LtiPlatformInput,
  actor: AuditActor,
): Promise<LtiPlatform | null> {
  return runUnitOfWork(deps.db, (uow) => createLtiRepository(uow.q).update(id, input, actor));
}

/** The registration goes with its states and launches; false when there is no such platform. */
export function removeLtiPlatform(
  deps: { db: Db },
  id: number,
  actor: AuditActor,
): Promise<boolean> {
  return runUnitOfWork(deps.db, (uow) => createLtiRepository(uow.q).remove(id, actor));
}
