import { type Locale, messagesFor } from '../locale';
import { escapeHtml, layout } from './html';

export interface UserCodePageOptions {
  /** The provider's code verification endpoint (`{realm}/device`). */
  action: string;
  /** The provider's anti-forgery secret for this browser session. */
  xsrf: string;
  nonce: string;
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
export function userCodePage({ action, xsrf, nonce, locale, userCode = '', error }: UserCodePageOptions): string {
  const text = messagesFor(locale).device;
  const invalid = error ? ' aria-invalid="true" aria-describedby="device-error"' : '';
  return layout({
    title: text.title,
    nonce,
    lang: locale,
    body: `<h1>${escapeHtml(text.title)}</h1>
${error ? `<p id="device-error" class="error" role="alert">${escapeHtml(error)}</p>` : `<p>${escapeHtml(text.intro)}</p>`}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(xsrf)}">
<input type="hidden" name="confirm" value="yes">
<label for="user_code">${escapeHtml(text.codeLabel)}</label>
<input id="user_code" name="user_code" type="text" class="code" required autofocus autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" value="${escapeHtml(userCode)}"${invalid}>
<button type="submit">${escapeHtml(text.submit)}</button>
</form>`,
  });
}

export interface DeviceConfirmPageOptions {
  action: string;
  nonce: string;
  locale: Locale;
  /** Display name of the signed-in user. */
  name: string;
  email: string;
  /** Formatted user code (e.g. `BCDF-GHJK`), for comparing with the device. */
  userCode: string;
}

export function deviceConfirmPage({ action, nonce, locale, name, email, userCode }: DeviceConfirmPageOptions): string {
  const text = messagesFor(locale).deviceConfirm;
  return layout({
    title: text.title,
    nonce,
    lang: locale,
    body: `<h1>${escapeHtml(text.question(name))}</h1>
<p>${escapeHtml(email)}</p>
<p>${escapeHtml(text.codeLabel)}: <span class="code">${escapeHtml(userCode)}</span></p>
<p>${escapeHtml(text.hint)}</p>
<form method="post" action="${escapeHtml(action)}">
<button type="submit" name="decision" value="allow" autofocus>${escapeHtml(text.allow)}</button>
<button type="submit" name="decision" value="deny" class="secondary">${escapeHtml(text.deny)}</button>
</form>`,
  });
}

export function deviceSuccessPage({ nonce, locale }: { nonce: string; locale: Locale }): string {
  const text = messagesFor(locale).deviceSuccess;
  return layout({
    title: text.title,
    nonce,
    lang: locale,
    body: `<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.message)}</p>`,
  });
}
