import { html } from '@portal/service-kit';

import { DEFAULT_LOCALE, type Locale, messagesFor } from '../../i18n/locale';
import { layout, type PageFrame } from '../../views/layout';

export interface SignInPageOptions {
  action: string;
  email?: string;
  error?: string;
  locale?: Locale;
}

export function signInPage(frame: PageFrame, { action, email = '', error, locale = DEFAULT_LOCALE }: SignInPageOptions): string {
  const text = messagesFor(locale).signIn;
  const invalid = error ? html` aria-invalid="true" aria-describedby="sign-in-error"` : '';
  // Focus goes where the user has to type next: the email, or the password when the email is known.
  const focusEmail = !email;
  return layout(frame, {
    title: text.title,
    lang: locale,
    body: html`<h1>${text.heading}</h1>
${error ? html`<p id="sign-in-error" class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${action}">
<label for="email">${text.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}"${invalid}${focusEmail ? html` autofocus` : ''}>
<label for="password">${text.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${focusEmail ? '' : html` autofocus`}>
<button type="submit">${text.submit}</button>
</form>`,
  });
}
