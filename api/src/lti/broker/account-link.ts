import type { Queryable } from '../../db/driver';
import { brokerLinkItem, IDENTITY_KINDS } from '../../identity/provisioning';
import { createOutboxRepository } from '../../repositories/outbox-repository';

/**
 * Asks for the user's identity account to be linked to the launch sign-in broker (outbox, so a
 * provider that is down gets it later), unless it is linked already or the request is pending.
 * Every launched user has an account (one without e-mail too). Answers whether it asked.
 */
export async function requestBrokerLink(
  tx: Queryable,
  userId: string,
  alias: string,
): Promise<boolean> {
  const res = await tx.query<{ needed: boolean }>(
    `select not exists (select 1 from lti_broker_account_links k where k.user_id = u.id and k.alias = $2)
            and not exists (select 1 from outbox o
                             where o.key = 'user:' || u.id::text and o.kind = $3 and o.done_at is null) as needed
       from users u where u.id = $1`,
    [userId, alias, IDENTITY_KINDS.linkBroker],
  );
  if (!res.rows[0]?.needed) return false;
  await createOutboxRepository(tx).enqueue([brokerLinkItem({ id: userId }, alias)]);
  return true;
}

/** How long the broker waits for a launched user's account and link to reach the identity provider. */
const ACCOUNT_WAIT_MS = 10_000;
const POLL_MS = 200;

/**
 * Waits until the user's identity work in the outbox (the account a launch just created, its
 * broker link) is done, at most ACCOUNT_WAIT_MS: the launch redirects at once, and the identity
 * provider can only sign in an account that exists and is linked. Answers whether it is done.
 */
export async function accountSettled(
  q: Queryable,
  userId: string,
  waitMs = ACCOUNT_WAIT_MS,
): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    const pending = await q.query(
      `select 1 from outbox where key = $1 and kind like 'identity.%' and done_at is null limit 1`,
      [`user:${userId}`],
    );
    if (pending.rowCount === 0) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
