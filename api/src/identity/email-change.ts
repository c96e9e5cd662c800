import { createHash, randomBytes } from 'node:crypto';
import {
  EMAIL_CHANGE_CONFIRM_PATH,
  EMAIL_CHANGE_MESSAGES,
  EMAIL_CHANGE_TTL_HOURS,
  type AdminUser,
  type EmailChangePreview,
  type EmailChangeRefusalCode,
} from '@portal/contract';
import type { Queryable } from '../db/driver';
import { ApiError } from '../lib/http-errors';
import { confirmationMail, noticeMail } from '../mail/email-change-mails';
import type { Mail } from '../mail/mailer';
import { recordAudit, type AuditActor } from '../repositories/audit-repository';
import { enqueue } from '../repositories/outbox-repository';
import { createUserRepository } from '../repositories/user-repository';
import { invitationItem, updateAccountItem } from './provisioning';

/**
 * E-mail changes need the new address's consent (issue #20): an administrator's new e-mail is
 * kept in `email_changes` with the SHA-256 of a single-use token; the new address gets the token
 * in a link, the old one a notice. Only the link's use changes `users.email` and, through the
 * outbox, the identity account, which is then marked verified: the address proved it is
 * reachable by its owner. Until then "forgot password" keeps going to the old address.
 */

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

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
 * Records `newEmail` as the user's pending e-mail in the caller's transaction, replacing any
 * earlier pending change (whose link stops working), and audits it. The token exists only in the
 * answer (for the mail); the table keeps its hash.
 */
export async function requestEmailChange(
  tx: Queryable,
  input: {
    user: AdminUser;
    newEmail: string;
    actor: AuditActor;
    settings: EmailChangeMailSettings;
  },
): Promise<RequestedEmailChange> {
  const { user, newEmail, actor, settings } = input;
  const token = randomBytes(32).toString('base64url');
  const res = await tx.query<{ language: string }>(
    `with upsert as (
       insert into email_changes (user_id, new_email, token_hash, expires_at, requested_by)
       values ($1, $2, $3, now() + $4::integer * interval '1 hour', $5)
       on conflict (user_id) do update
         set new_email = excluded.new_email, token_hash = excluded.token_hash,
             expires_at = excluded.expires_at, requested_by = excluded.requested_by,
             created_at = now(), confirmed_at = null
       returning user_id)
     select u.language from users u join upsert on upsert.user_id = u.id`,
    [user.id, newEmail, hashOf(token), EMAIL_CHANGE_TTL_HOURS, actor.id],
  );
  await recordAudit(tx, {
    actor,
    action: 'request_email_change',
    entityType: 'user',
    entityId: user.id,
    organisationId: user.organisation,
    before: { email: user.email },
    after: { email: user.email, pendingEmail: newEmail },
  });
  const mailInput = {
    language: res.rows[0]?.language ?? 'en',
    name: `${user.firstName} ${user.lastName}`.trim(),
    oldEmail: user.email,
    newEmail,
    link: `${settings.portalUrl}${EMAIL_CHANGE_CONFIRM_PATH}#token=${token}`,
    ttlHours: EMAIL_CHANGE_TTL_HOURS,
    productName: settings.productName,
  };
  return { token, mails: [confirmationMail(mailInput), noticeMail(mailInput)] };
}

/**
 * Withdraws the pending change whose link carries `token`, if it is still the pending one (a
 * newer change by another administrator is left alone). For a change whose mails could not go.
 */
export async function withdrawEmailChange(db: Queryable, token: string): Promise<void> {
  await db.query('delete from email_changes where token_hash = $1 and confirmed_at is null', [
    hashOf(token),
  ]);
}

/** Cancels the user's pending change (the administrator's "cancel"); false when there was none. */
export async function cancelEmailChange(
  tx: Queryable,
  input: { user: AdminUser; actor: AuditActor },
): Promise<boolean> {
  const { user, actor } = input;
  const res = await tx.query<{ new_email: string }>(
    `delete from email_changes
      where user_id = $1 and confirmed_at is null and expires_at > now()
      returning new_email`,
    [user.id],
  );
  const cancelled = res.rows[0];
  if (!cancelled) return false;
  await recordAudit(tx, {
    actor,
    action: 'cancel_email_change',
    entityType: 'user',
    entityId: user.id,
    organisationId: user.organisation,
    before: { email: user.email, pendingEmail: cancelled.new_email },
    after: { email: user.email },
  });
  return true;
}

const STATUS: Record<EmailChangeRefusalCode, number> = {
  invalid: 404,
  expired: 410,
  used: 409,
  taken: 409,
};

const refused = (code: EmailChangeRefusalCode) =>
  new ApiError(STATUS[code], { detail: EMAIL_CHANGE_MESSAGES[code], code });

interface ChangeRow {
  user_id: string;
  new_email: string;
  expires_at: Date | string;
  confirmed_at: Date | string | null;
  expired: boolean;
}

async function changeOf(tx: Queryable, token: string, lock: boolean): Promise<ChangeRow> {
  const res = await tx.query<ChangeRow>(
    `select user_id::text, new_email, expires_at, confirmed_at, expires_at <= now() as expired
       from email_changes where token_hash = $1${lock ? ' for update' : ''}`,
    [hashOf(token)],
  );
  const row = res.rows[0];
  if (!row) throw refused('invalid');
  if (row.confirmed_at !== null) throw refused('used');
  if (row.expired) throw refused('expired');
  return row;
}

/** What the link would confirm, without using it up (the landing page shows it). */
export async function previewEmailChange(
  db: Queryable,
  token: string,
): Promise<EmailChangePreview> {
  const row = await changeOf(db, token, false);
  return { email: row.new_email, expiresAt: new Date(row.expires_at).toISOString() };
}

/**
 * Uses the link, inside the caller's transaction: under a lock on the change, the user's e-mail
 * becomes the new one, the link is marked used, the identity account's update (e-mail verified) is queued
 * and the confirmation is audited with the user as actor. An invited user, whose set-password
 * mail went to the old address, is invited again at the new one.
 */
export async function confirmEmailChange(tx: Queryable, token: string): Promise<AdminUser> {
  const change = await changeOf(tx, token, true);
  const before = await createUserRepository(tx).findAdminUser(change.user_id);
  if (!before) throw refused('invalid');
  const email = change.new_email;
  if (email.toLowerCase() !== before.email.toLowerCase()) {
    if ((await createUserRepository(tx).emailsInUse([email])).size > 0) throw refused('taken');
  }
  try {
    await tx.query('update users set email = $2, updated_at = now() where id = $1', [
      before.id,
      email,
    ]);
  } catch (error) {
    // Another user took the address between the check and the write (users_email_key).
    if ((error as { code?: unknown }).code === '23505') throw refused('taken');
    throw error;
  }
  await tx.query('update email_changes set confirmed_at = now() where user_id = $1', [before.id]);
  const after = (await createUserRepository(tx).findAdminUser(before.id))!;
  const items = [updateAccountItem(after, { emailVerified: true })];
  if (after.accountStatus === 'invited') items.push(invitationItem(after));
  await enqueue(tx, items);
  await recordAudit(tx, {
    actor: { id: after.id, firstName: after.firstName, lastName: after.lastName, email },
    action: 'confirm_email_change',
    entityType: 'user',
    entityId: after.id,
    organisationId: after.organisation,
    before: { email: before.email, pendingEmail: email },
    after: { email },
  });
  return after;
}
