import { randomUUID } from 'node:crypto';
import { ROLE_CODES } from '@portal/contract';
import type { Db } from '../db/driver';
import { ROLES } from '../reference/reference-data';
import type { AccountFields, IdentityAdmin } from './identity-admin';

/** The role whose holders administer the whole portal (every permission, no organisation). */
const SYS_ADMIN_ROLE = ROLES.find((role) => role.code === ROLE_CODES.sysAdmin)!;

/** Who the audit log names for users made from the command line. */
export const CREATE_ADMIN_ACTOR = 'create-admin (command line)';

export class CreateAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CreateAdminError';
  }
}

export interface CreatedAdmin {
  userId: string;
  /** The account's id at the identity provider (the token's `sub`). */
  sub: string;
  /** false: the portal already had this global administrator; only a new invitation was sent. */
  created: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A global administrator for a new installation, with no administrator yet to create one in the
 * portal: the identity account (Keycloak Admin REST API, or the bundled provider's copy of it),
 * the portal's user with the system administrator role and no organisation, and the
 * set-password invitation. Running it again for the same person only sends a new invitation.
 */
export async function createGlobalAdmin(db: Db, identity: IdentityAdmin, fields: AccountFields): Promise<CreatedAdmin> {
  const email = fields.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254) throw new CreateAdminError(`--email: "${fields.email}" is not an e-mail address`);
  const firstName = fields.firstName.trim();
  const lastName = fields.lastName.trim();
  if (!firstName || firstName.length > 150) throw new CreateAdminError('--first-name: must be 1 to 150 characters');
  if (!lastName || lastName.length > 150) throw new CreateAdminError('--last-name: must be 1 to 150 characters');

  const existing = (
    await db.query<{ id: string; role_id: number; identity_sub: string | null }>(
      'select id, role_id, identity_sub from users where lower(email) = $1',
      [email],
    )
  ).rows[0];
  if (existing && existing.role_id !== SYS_ADMIN_ROLE.id) {
    throw new CreateAdminError(
      `${email} is already a portal user with another role; a global administrator can change their role in the admin section`,
    );
  }

  // Looked up first: an account made by an earlier run (or by hand in Keycloak) is reused.
  const sub = (await identity.findByEmail(email))?.id ?? (await identity.create({ email, firstName, lastName })).id;

  if (existing) {
    if (existing.identity_sub !== sub && existing.identity_sub !== null) {
      throw new CreateAdminError(`${email} is linked to another identity account (${existing.identity_sub}); fix that first`);
    }
    await identity.sendInvitation(sub);
    return { userId: existing.id, sub, created: false };
  }

  const userId = randomUUID();
  await db.transaction(async (tx) => {
    await tx.query(
      `insert into users (id, email, first_name, last_name, organisation_id, role_id, language,
                          identity_sub, account_status)
       values ($1, $2, $3, $4, null, $5, 'en', $6, 'invited')`,
      [userId, email, firstName, lastName, SYS_ADMIN_ROLE.id, sub],
    );
    await tx.query(
      `insert into audit_log (actor_id, actor_name, actor_email, action, entity_type, entity_id, after)
       values (null, $1, '', 'create', 'user', $2, $3)`,
      [CREATE_ADMIN_ACTOR, userId, JSON.stringify({ email, firstName, lastName, role: SYS_ADMIN_ROLE.name })],
    );
  });
  await identity.sendInvitation(sub);
  return { userId, sub, created: true };
}

/**
 * The set-password link of the newest mail to `email` in the bundled provider's development
 * outbox; undefined when there is no outbox (SMTP, or a real Keycloak: the mail went out).
 */
export async function invitationLinkFromOutbox(identityUrl: string, email: string): Promise<string | undefined> {
  let mails: Array<{ to?: unknown; text?: unknown }>;
  try {
    const res = await fetch(`${identityUrl}/dev/outbox.json`, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) return undefined;
    mails = (await res.json()) as typeof mails;
  } catch {
    return undefined;
  }
  if (!Array.isArray(mails)) return undefined;
  const mail = mails.find((m) => typeof m.to === 'string' && m.to.toLowerCase() === email.toLowerCase());
  const text = typeof mail?.text === 'string' ? mail.text : '';
  return /https?:\/\/\S+\/login-actions\/action-token\?key=[A-Za-z0-9._~%-]+/.exec(text)?.[0];
}
