import type { Queryable } from '../../db/driver';

/** The claims the broker tells the identity provider about a launched user. */
export interface BrokerClaims {
  sub: string;
  preferred_username: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: true;
}

interface UserRow {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  may_sign_in: boolean;
  verifies_email: boolean;
}

/**
 * The launched user as the broker may sign them in: null when the user is gone or their
 * organisation is deactivated (a global administrator has none). The e-mail is claimed only when
 * the launch's platform is marked as verifying e-mail addresses (issue #22 point 3): otherwise it
 * is what a platform administrator typed, and a Keycloak that links or imports by e-mail must not
 * trust it.
 */
export async function brokerClaims(
  q: Queryable,
  userId: string,
  launchId: string,
): Promise<BrokerClaims | null> {
  const res = await q.query<UserRow>(
    `select u.id::text as id, u.first_name, u.last_name, u.email,
            (u.organisation_id is null or coalesce(o.is_active, false)) as may_sign_in,
            coalesce(p.verifies_email, false) as verifies_email
       from users u
       left join organisations o on o.id = u.organisation_id
       left join lti_launches l on l.id = $2::uuid and l.user_id = u.id
       left join lti_platforms p on p.id = l.platform_id
      where u.id = $1::uuid`,
    [userId, launchId],
  );
  const user = res.rows[0];
  if (!user?.may_sign_in) return null;
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  const email = user.verifies_email && user.email ? user.email : null;
  return {
    sub: user.id,
    // Keycloak shows it as the brokered user's username; the id when there is no trusted e-mail.
    preferred_username: email ?? user.id,
    ...(name ? { name } : {}),
    ...(user.first_name ? { given_name: user.first_name } : {}),
    ...(user.last_name ? { family_name: user.last_name } : {}),
    ...(email ? { email, email_verified: true as const } : {}),
  };
}
