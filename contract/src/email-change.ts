import { Type, type Static } from '@sinclair/typebox';

/**
 * E-mail changes need the new address's consent (issue #20). An administrator's new e-mail for a
 * user is only *pending*: the new address gets a confirmation link, the old one a notice, and the
 * user keeps the old address (portal and identity account) until the link is used.
 */

/** How long a confirmation link works. */
export const EMAIL_CHANGE_TTL_HOURS = 24;

/** The host page the confirmation mail links to; the token travels in the fragment (`#token=`). */
export const EMAIL_CHANGE_CONFIRM_PATH = '/confirm-email';

/**
 * The single-use token of a confirmation link: 32 random bytes, base64url. Longer or other
 * characters cannot be one; such a body is answered like an unknown token.
 */
export const EMAIL_CHANGE_TOKEN_MAX_LENGTH = 128;

/** POST /api/v1/email-change/lookup and …/confirm. */
export const EmailChangeTokenInput = Type.Object(
  { token: Type.String({ maxLength: EMAIL_CHANGE_TOKEN_MAX_LENGTH }) },
  { additionalProperties: false },
);
export type EmailChangeTokenInput = Static<typeof EmailChangeTokenInput>;

/** 200 of POST /api/v1/email-change/lookup: what the link would confirm (nothing changes yet). */
export const EmailChangePreview = Type.Object({
  /** The new address, the one that receives the link. */
  email: Type.String(),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type EmailChangePreview = Static<typeof EmailChangePreview>;

/** 200 of POST /api/v1/email-change/confirm: the user's e-mail is now `email`. */
export const EmailChangeConfirmed = Type.Object({ email: Type.String() });
export type EmailChangeConfirmed = Static<typeof EmailChangeConfirmed>;

/**
 * Why a link does not work: `invalid` (unknown, replaced by a newer change or cancelled: 404),
 * `expired` (410), `used` (already confirmed: 409), `taken` (another user has the address by
 * now: 409).
 */
export const EMAIL_CHANGE_REFUSALS = ['invalid', 'expired', 'used', 'taken'] as const;
export type EmailChangeRefusalCode = (typeof EMAIL_CHANGE_REFUSALS)[number];
export const EmailChangeRefusal = Type.Object({
  detail: Type.String(),
  code: Type.Union(EMAIL_CHANGE_REFUSALS.map((c) => Type.Literal(c))),
});
export type EmailChangeRefusal = Static<typeof EmailChangeRefusal>;

export const EMAIL_CHANGE_MESSAGES = {
  invalid:
    'This confirmation link is not valid. It may have been replaced by a newer one or withdrawn.',
  expired:
    'This confirmation link has expired. Ask your administrator to change the address again.',
  used: 'This confirmation link has already been used.',
  taken: 'Another user has this e-mail address by now, so it cannot be confirmed.',
  /** 503 of PUT /api/v1/user/{id} when the mails could not be sent. */
  notSent:
    'The confirmation e-mail could not be sent, so the e-mail address was not changed. Other ' +
    'changes were saved. Try again later.',
  /** 400 of PUT /api/v1/user/{id} when the API has no way to send mail (SMTP_URL unset). */
  noMailer:
    'E-mail addresses cannot be changed: this portal has no mail server configured to send ' +
    'the confirmation e-mail.',
} as const;
