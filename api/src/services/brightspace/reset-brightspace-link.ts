import type { ServiceContext } from '../service-context';

/**
 * POST /user/brightspace-auth-reset: forgets the caller's Brightspace user. The repository's
 * `unlink` still opens its own transaction, because `link` (its pair, called by the Brightspace
 * sign-in callback) does; both move into a unit of work together with that route (#21).
 */
export async function resetBrightspaceLink(ctx: ServiceContext, userId: string): Promise<void> {
  await ctx.repos.brightspace.unlink(userId);
  // The Brightspace flags are part of the signed-in user: their next call must see them cleared.
  ctx.repos.users.forget(userId);
}
