import { randomBytes } from 'node:crypto';
import {
  EMAIL_CHANGE_CONFIRM_PATH,
  EMAIL_CHANGE_TTL_HOURS,
  type AdminUser,
} from '@portal/contract';
import type { Queryable } from '../../db/driver';
import { confirmationMail, noticeMail } from '../../mail/email-change-mails';
import type { Mail } from '../../mail/mailer';
import { createAuditRepository, type AuditActor } from '../../repositories/audit-repository';
import { createEmailChangeRepository } from '../../repositories/email-change-repository';

/**
 * E-mail changes need the new address's consent (issue #20): an administrator's new e-mail is
 * kept in `email_changes` with the SHA-256 of a single-use token; the new address gets the token
 * in a link, the old one a notice. Only the link's use changes `users.email` and, through the
 * outbox, the identity account, which is then marked verified: the address proved it is
 * reachable by its owner. Until then "forgot password" keeps going to the old address.
 */

/** What the confirmation link and the two mails are made of. */
export interface RequestedEmailChange {
  token: string;
  /** The confirmation mail first: only if it went out is the change worth keeping. */
  mails: [confirmation: Mail, notice: Mail];
}

export interface EmailChangeMailSettings {
  portalUrl: string;
  productName: string;
}

/**
 * Records `newEmail` as the user's pending e-mail in the caller's transaction (a step of the
 * user update), replacing any earlier pending change, and audits it. The token exists only in
 * the answer (for the mail).
 */
export async function requestEmailChange(
  tx: Queryable,
  input: {
    /** Only a user with an address changes it; a first address is added by the user update. */
    user: AdminUser & { email: string };
    newEmail: string;
    actor: AuditActor;
    settings: EmailChangeMailSettings;
  },
): Promise<RequestedEmailChange> {
  const { user, newEmail, actor, settings } = input;
  const token = randomBytes(32).toString('base64url');
  const language = await createEmailChangeRepository(tx).replacePending({
    userId: user.id,
    newEmail,
    token,
    requestedBy: actor.id,
  });
  await createAuditRepository(tx).record({
    actor,
    action: 'request_email_change',
    entityType: 'user',
    entityId: user.id,
    organisationId: user.organisation,
    before: { email: user.email },
    after: { email: user.email, pendingEmail: newEmail },
  });
  const mailInput = {
    language: language ?? 'en',
    name: `${user.firstName} ${user.lastName}`.trim(),
    oldEmail: user.email,
    newEmail,
    link: `${settings.portalUrl}${EMAIL_CHANGE_CONFIRM_PATH}#token=${token}`,
    ttlHours: EMAIL_CHANGE_TTL_HOURS,
    productName: settings.productName,
  };
  return { token, mails: [confirmationMail(mailInput), noticeMail(mailInput)] };
}
