import {
  EMAIL_CHANGE_MESSAGES,
  type EmailChangePreview,
  type EmailChangeRefusalCode,
} from '@portal/contract';
import { ApiError } from '../../lib/http-errors';
import type {
  EmailChangeRepository,
  EmailChangeRow,
} from '../../repositories/email-change-repository';

const STATUS: Record<EmailChangeRefusalCode, number> = {
  invalid: 404,
  expired: 410,
  used: 409,
  taken: 409,
};

/** A confirmation link refused, with the code the landing page words. */
export const refused = (code: EmailChangeRefusalCode) =>
  new ApiError(STATUS[code], { detail: EMAIL_CHANGE_MESSAGES[code], code });

/** The change a link names if it can still be used, else the refusal. */
export async function usableChange(
  changes: EmailChangeRepository,
  token: string,
  lock: boolean,
): Promise<EmailChangeRow> {
  const row = await changes.findByToken(token, lock);
  if (!row) throw refused('invalid');
  if (row.confirmed_at !== null) throw refused('used');
  if (row.expired) throw refused('expired');
  return row;
}

/** POST /email-change/lookup: what the link would confirm, without using it up. */
export async function previewEmailChange(
  changes: EmailChangeRepository,
  token: string,
): Promise<EmailChangePreview> {
  const row = await usableChange(changes, token, false);
  return { email: row.new_email, expiresAt: new Date(row.expires_at).toISOString() };
}
