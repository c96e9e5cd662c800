import type { Db } from '../../db/driver';
import type { AuditActor } from '../../repositories/audit-repository';
import {
  createLtiRegistrationRepository,
  OtherOrganisation,
  type RegistrationOutcome,
} from '../../repositories/lti-registration-repository';
import type { PlatformEndpoints, RegisteredClient } from '../../repositories/lti-types';
import { runUnitOfWork } from '../unit-of-work';

/**
 * A new single-use registration token for `organisationId` (expired ones are swept with it); null
 * when the organisation does not exist.
 */
export function createRegistrationToken(
  deps: { db: Db },
  organisationId: number,
  actor: AuditActor,
) {
  return runUnitOfWork(deps.db, (uow) =>
    createLtiRegistrationRepository(uow.q).createToken(organisationId, actor),
  );
}

/**
 * Consumes the token and stores what the platform registered, all or nothing: a client id of
 * another organisation rolls everything back and leaves the token unused.
 */
export async function registerPlatform(
  deps: { db: Db },
  token: string,
  endpoints: PlatformEndpoints,
  client: RegisteredClient,
): Promise<RegistrationOutcome> {
  try {
    return await runUnitOfWork(deps.db, (uow) =>
      createLtiRegistrationRepository(uow.q).register(token, endpoints, client),
    );
  } catch (error) {
    if (error instanceof OtherOrganisation) return { ok: false, reason: 'other_organisation' };
    throw error;
  }
}

/**
 * Counts one try of the token before the platform is called; false when the token is unknown,
 * used, expired or has had its tries.
 */
export function claimRegistrationAttempt(deps: { db: Db }, token: string): Promise<boolean> {
  return runUnitOfWork(deps.db, (uow) =>
    createLtiRegistrationRepository(uow.q).claimAttempt(token),
  );
}
