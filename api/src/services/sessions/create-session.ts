import {
  LTI_LAUNCH_MAX_AGE_SECONDS,
  LTI_MESSAGES,
  type CreateSessionBody,
  type FieldErrors,
} from '@portal/contract';
import { badRequest, detailError, notFound } from '../../lib/http-errors';
import { hashSessionToken, newSessionToken } from '../../lib/session-token';
import {
  createSessionLaunchRepository,
  type LaunchFacts,
} from '../../repositories/session-launch-repository';
import { createSessionRepository } from '../../repositories/session-repository';
import type { AuthUser } from '../../repositories/user-repository';
import { runSingleWrite } from '../unit-of-work';
import type { SessionDeps } from './deps';

export const tooManyOpenSessions = (max: number) =>
  `You already have ${max} simulation sessions open. Finish one, or try again later.`;

export interface SessionLimits {
  maxOpenSessionsPerUser: number;
  sessionTokenMaxAgeSeconds: number;
  sessionTokenIdleSeconds: number;
}

/**
 * A session started with `ltiLaunchId` (issue #10 point 3) must name a launch of the caller's, at
 * most LTI_LAUNCH_MAX_AGE_SECONDS old. Someone else's launch is as unknown as one that never was
 * (404); an old one must be opened again from the course (400), so a report and its grade belong
 * to a launch the platform made recently.
 */
function assertOwnRecentLaunch(
  launch: LaunchFacts['launch'],
  ltiLaunchId: string | null,
  userId: string,
) {
  if (ltiLaunchId === null) return;
  if (!launch || launch.userId.toLowerCase() !== userId.toLowerCase()) throw notFound();
  if (launch.ageSeconds > LTI_LAUNCH_MAX_AGE_SECONDS) {
    throw badRequest({ ltiLaunchId: [LTI_MESSAGES.launchExpired] });
  }
}

/**
 * The learner starts a simulation: the product must be theirs in that mode, the configuration one
 * of the product's, the launch (if any) their own recent one. The token is answered only here.
 * Two round trips (issue #24 point 5): what the checks need, read in one statement, then the
 * write; the checks are made on it in the order they always were.
 */
export async function createSession(
  deps: SessionDeps & { config: SessionLimits },
  user: AuthUser,
  productId: number,
  body: CreateSessionBody,
): Promise<{ token: string; uuid: string }> {
  const { configuration, mode, ltiLaunchId = null, categoryId = null } = body;
  const { maxOpenSessionsPerUser, sessionTokenMaxAgeSeconds, sessionTokenIdleSeconds } =
    deps.config;
  const facts = await createSessionLaunchRepository(deps.db).facts(
    user,
    productId,
    configuration,
    ltiLaunchId,
  );
  const { modes } = facts;
  if (modes.length === 0 && !facts.productVisible) throw notFound();
  const errors: FieldErrors = {};
  if (!modes.includes(mode)) {
    errors.mode = [`Your licence does not include this product in ${mode} mode.`];
  }
  // The launch starts a configuration record of the product (by its name, or by the key of
  // the catalogue leaf that starts it); a category, when given, must be one of those leaves.
  const resolved = facts.configuration;
  const leafIds = resolved?.leafIds ?? [];
  if (!resolved) {
    errors.configuration = [`"${configuration}" is not a simulation of this product.`];
  } else if (categoryId !== null && !leafIds.includes(categoryId)) {
    errors.categoryId = ['The category does not start this configuration.'];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  assertOwnRecentLaunch(facts.launch, ltiLaunchId, user.id);

  const token = newSessionToken();
  // One statement, atomic on its own (migration 0046): no BEGIN and COMMIT round trips around it.
  const created = await runSingleWrite(deps.db, async (uow) => {
    const result = await createSessionRepository(uow.q).create(
      {
        userId: user.id,
        productId,
        // One leaf per configuration names the report even when the client sent no category.
        categoryId: categoryId ?? (leafIds.length === 1 ? (leafIds[0] ?? null) : null),
        configuration,
        configurationId: resolved?.id ?? null,
        mode,
        ltiLaunchId,
        tokenHash: hashSessionToken(token),
      },
      {
        maxOpen: maxOpenSessionsPerUser,
        maxAgeSeconds: sessionTokenMaxAgeSeconds,
        idleSeconds: sessionTokenIdleSeconds,
      },
    );
    uow.afterCommit(() => {
      deps.sessionStatuses.advance(result.closed.map((uuid) => ({ uuid, status: 'closed' })));
      if (result.ok) {
        deps.sessionStatuses.remember(
          { uuid: result.uuid, userId: user.id, productId },
          'not_started',
        );
      }
    });
    return result;
  });
  if (!created.ok) throw detailError(409, tooManyOpenSessions(maxOpenSessionsPerUser));
  return { token, uuid: created.uuid };
}
