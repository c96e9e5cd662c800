import { html } from '@portal/service-kit';

import type { PasswordProblem } from '../../accounts/password-policy';
import { DEFAULT_LOCALE, type Locale, messagesFor } from '../../i18n/locale';
import { layout, type PageFrame } from '../../views/layout';

export interface SetPasswordPageOptions {
  action: string;
  /** The action token, posted back with the form. */
  key: string;
  /** The anti-forgery value, also in a SameSite=Strict cookie. */
  csrf: string;
  email: string;
  locale?: Locale;
  problems?: { password?: PasswordProblem; confirmation?: PasswordProblem };
  /** A message about the whole form (too many attempts). */
  error?: string;
}

type Problems = NonNullable<SetPasswordPageOptions['problems']>;

/** A new-password field (or its confirmation) with its problem under it; also the change-password page's. */
export function passwordField(
  name: 'password' | 'confirmation',
  label: string,
  describedBy: string[],
  problems: Problems,
  problemText: (problem: PasswordProblem) => string,
  /** Whether a field before these two takes the focus. */
  focusElsewhere = false,
) {
  const problem = problems[name];
  const ids = [...describedBy, ...(problem ? [`${name}-error`] : [])];
  // The password, unless only its confirmation needs the user's attention.
  const focus = !focusElsewhere && (name === 'confirmation') === Boolean(problems.confirmation && !problems.password);
  return html`<label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="password" autocomplete="new-password" required${problem ? html` aria-invalid="true"` : ''}${ids.length ? html` aria-describedby="${ids.join(' ')}"` : ''}${focus ? html` autofocus` : ''}>
${problem ? html`<p id="${name}-error" class="field-error">${problemText(problem)}</p>` : ''}`;
}

/**
 * Keycloak's "Update password" page: new password, confirmation, each problem under its field.
 * The username travels in a hidden e-mail input, not type="hidden", which password managers skip.
 */
export function setPasswordPage(
  frame: PageFrame,
  { action, key, csrf, email, locale = DEFAULT_LOCALE, problems = {}, error }: SetPasswordPageOptions,
): string {
  const text = messagesFor(locale).setPassword;
  const problemText = (problem: PasswordProblem) => text.problems[problem];
  return layout(frame, {
    title: text.title,
    lang: locale,
    body: html`<h1>${text.title}</h1>
<p>${text.intro(email)}</p>
${error ? html`<p id="form-error" class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${action}" novalidate>
<input type="hidden" name="key" value="${key}">
<input type="hidden" name="csrf" value="${csrf}">
<input type="email" name="username" autocomplete="username" value="${email}" hidden readonly>
${passwordField('password', text.password, ['password-rules'], problems, problemText)}
<p id="password-rules" class="hint">${text.rules}</p>
${passwordField('confirmation', text.confirmation, [], problems, problemText)}
<button type="submit">${text.submit}</button>
</form>`,
  });
}
