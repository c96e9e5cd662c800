import { Type, type Static } from '@sinclair/typebox';

/**
 * Whose launch this is (issue #22 point 1): the launch page asks before it continues, so a launch
 * by someone other than the portal user signed in to this browser shows the mismatch screen
 * instead of silently going on as the wrong user.
 */

const Uuid = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});

export const LtiLaunchOwnerParams = Type.Object({ launchId: Uuid });
export type LtiLaunchOwnerParams = Static<typeof LtiLaunchOwnerParams>;

/**
 * GET /api/v1/lti/launch/{launchId}/owner. `launchedAs.name` is the caller's own display name,
 * only when the launch is theirs: nothing about another user (not even whether the launch exists)
 * is told — an unknown launch is `mine: false` too.
 */
export const LtiLaunchOwner = Type.Object({
  mine: Type.Boolean(),
  launchedAs: Type.Object({ name: Type.Optional(Type.String()) }),
});
export type LtiLaunchOwner = Static<typeof LtiLaunchOwner>;
