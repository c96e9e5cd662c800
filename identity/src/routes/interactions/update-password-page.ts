import { html } from '@portal/service-kit';

import type { PasswordProblem } from '../../accounts/password-policy';
import { DEFAULT_LOCALE, type Locale, messagesFor } from '../../i18n/locale';
import { layout, type PageFrame } from '../../views/layout';
import { passwordField } from '../set-password/page';

export type CurrentPasswordProblem = 'missing' | 'wrong';

export interface UpdatePasswordPageOptions {
  action: string;
  email: string;
  locale?: Locale;
  problems?: { current?: CurrentPasswordProblem; password?: PasswordProblem; confirmation?: PasswordProblem };
  /** A message about the whole form (too many attempts). */
  error?: string;
}

/**
 * Keycloak's "Update password" page as an application-initiated action: current password, the new
 * one twice, each problem under its field, and Cancel back to the application.
 */
export function updatePasswordPage(
  frame: PageFrame,
  { action, email, locale = DEFAULT_LOCALE, problems = {}, error }: UpdatePasswordPageOptions,
): string {
  const text = messagesFor(locale).updatePassword;
  const rules = messagesFor(locale).setPassword;
  const problemText = (problem: PasswordProblem) => rules.problems[problem];
  const current = problems.current;
  // The current password first, unless only the new one needs fixing.
  const focusCurrent = Boolean(current) || (!problems.password && !problems.confirmation);
  const currentIds = ['current-error'].filter(() => current);
  return layout(frame, {
    title: text.title,
    lang: locale,
    body: html`<h1>${text.title}</h1>
<p>${text.intro(email)}</p>
${error ? html`<p id="form-error" class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${action}" novalidate>
<input type="email" name="username" autocomplete="username" value="${email}" hidden readonly>
<label for="current">${text.current}</label>
<input id="current" name="current" type="password" autocomplete="current-password" required${current ? html` aria-invalid="true"` : ''}${currentIds.length ? html` aria-describedby="${currentIds.join(' ')}"` : ''}${focusCurrent ? html` autofocus` : ''}>
${current ? html`<p id="current-error" class="field-error">${current === 'wrong' ? text.wrongCurrent : text.missingCurrent}</p>` : ''}
${passwordField('password', text.password, ['password-rules'], problems, problemText, focusCurrent)}
<p id="password-rules" class="hint">${rules.rules}</p>
${passwordField('confirmation', text.confirmation, [], problems, problemText, focusCurrent)}
<button type="submit">${text.submit}</button>
<button type="submit" name="cancel" value="yes" class="secondary">${text.cancel}</button>
</form>`,
  });
}
