import { html } from '@portal/service-kit';

import { DEFAULT_LOCALE, type Locale, messagesFor } from '../i18n/locale';

export interface InvitationMailOptions {
  productName: string;
  firstName: string;
  lastName: string;
  link: string;
  lifespanSeconds: number;
  locale?: Locale;
}

/** The execute-actions e-mail (UPDATE_PASSWORD): plain text and a simple HTML part, en or de. */
export function invitationMail({
  productName,
  firstName,
  lastName,
  link,
  lifespanSeconds,
  locale = DEFAULT_LOCALE,
}: InvitationMailOptions): { subject: string; text: string; html: string } {
  const text = messagesFor(locale).invitation;
  const name = [firstName, lastName].filter(Boolean).join(' ');
  const lines = [
    text.greeting(name),
    '',
    text.body(productName),
    '',
    link,
    '',
    text.validity(lifespanSeconds),
    text.ignore,
  ];
  const body = html`<!DOCTYPE html>
<html lang="${locale}">
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1f24">
<p>${text.greeting(name)}</p>
<p>${text.body(productName)}</p>
<p><a href="${link}" style="display:inline-block;padding:.6rem 1rem;color:#fff;background:#0b5cad;border-radius:4px;text-decoration:none;font-weight:600">${text.action}</a></p>
<p style="font-size:.875rem;color:#4b5563">${text.validity(lifespanSeconds)} ${text.ignore}</p>
</body>
</html>
`.value;
  return { subject: text.subject(productName), text: `${lines.join('\n')}\n`, html: body };
}
