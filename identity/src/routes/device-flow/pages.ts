import { html } from '@portal/service-kit';

import { type Locale, messagesFor } from '../../i18n/locale';
import { layout, type PageFrame } from '../../views/layout';

export interface UserCodePageOptions {
  /** The provider's code verification endpoint (`{realm}/device`). */
  action: string;
  /** The provider's anti-forgery secret for this browser session. */
  xsrf: string;
  locale: Locale;
  /** Pre-filled code: from `?user_code=`, or what the user typed when it was refused. */
  userCode?: string;
  /** Shown as an alert above the form. */
  error?: string;
}

/**
 * The page where the user types the code their device shows. `confirm=yes` goes with the code
 * because the user confirms after signing in, on our device prompt, where their name is known;
 * the library's own confirmation comes before sign-in and could not name them.
 */
export function userCodePage(frame: PageFrame, { action, xsrf, locale, userCode = '', error }: UserCodePageOptions): string {
  const text = messagesFor(locale).device;
  const invalid = error ? html` aria-invalid="true" aria-describedby="device-error"` : '';
  return layout(frame, {
    title: text.title,
    lang: locale,
    body: html`<h1>${text.title}</h1>
${error ? html`<p id="device-error" class="error" role="alert">${error}</p>` : html`<p>${text.intro}</p>`}
<form method="post" action="${action}">
<input type="hidden" name="xsrf" value="${xsrf}">
<input type="hidden" name="confirm" value="yes">
<label for="user_code">${text.codeLabel}</label>
<input id="user_code" name="user_code" type="text" class="code" required autofocus autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" value="${userCode}"${invalid}>
<button type="submit">${text.submit}</button>
</form>`,
  });
}

export interface DeviceConfirmPageOptions {
  action: string;
  locale: Locale;
  /** Display name of the signed-in user. */
  name: string;
  email: string;
  /** Formatted user code (e.g. `BCDF-GHJK`), for comparing with the device. */
  userCode: string;
}

export function deviceConfirmPage(frame: PageFrame, { action, locale, name, email, userCode }: DeviceConfirmPageOptions): string {
  const text = messagesFor(locale).deviceConfirm;
  return layout(frame, {
    title: text.title,
    lang: locale,
    body: html`<h1>${text.question(name)}</h1>
<p>${email}</p>
<p>${text.codeLabel}: <span class="code">${userCode}</span></p>
<p>${text.hint}</p>
<form method="post" action="${action}">
<button type="submit" name="decision" value="allow" autofocus>${text.allow}</button>
<button type="submit" name="decision" value="deny" class="secondary">${text.deny}</button>
</form>`,
  });
}

export function deviceSuccessPage(frame: PageFrame, { locale }: { locale: Locale }): string {
  const text = messagesFor(locale).deviceSuccess;
  return layout(frame, {
    title: text.title,
    lang: locale,
    body: html`<h1>${text.title}</h1>
<p>${text.message}</p>`,
  });
}
