import { DEFAULT_LOCALE, type Locale, messagesFor } from '../locale';
import { escapeHtml, layout } from './html';

export interface SignInPageOptions {
  action: string;
  nonce: string;
  email?: string;
  error?: string;
  locale?: Locale;
}

export function signInPage({ action, nonce, email = '', error, locale = DEFAULT_LOCALE }: SignInPageOptions): string {
  const text = messagesFor(locale).signIn;
  const invalid = error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : '';
  // Focus goes where the user has to type next: the email, or the password when the email is known.
  const focusEmail = !email;
  return layout({
    title: text.title,
    nonce,
    lang: locale,
    body: `<h1>${escapeHtml(text.heading)}</h1>
${error ? `<p id="sign-in-error" class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">${escapeHtml(text.email)}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${invalid}${focusEmail ? ' autofocus' : ''}>
<label for="password">${escapeHtml(text.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${focusEmail ? '' : ' autofocus'}>
<button type="submit">${escapeHtml(text.submit)}</button>
</form>`,
  });
}
