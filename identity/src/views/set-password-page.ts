import { DEFAULT_LOCALE, type Locale, messagesFor } from '../locale';
import type { PasswordProblem } from '../password-policy';
import { escapeHtml, layout } from './html';

export interface SetPasswordPageOptions {
  action: string;
  nonce: string;
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

/**
 * Keycloak's "Update password" page: new password, confirmation, each problem under its field.
 * The username travels in a hidden e-mail input, not type="hidden", which password managers skip.
 */
export function setPasswordPage({
  action,
  nonce,
  key,
  csrf,
  email,
  locale = DEFAULT_LOCALE,
  problems = {},
  error,
}: SetPasswordPageOptions): string {
  const text = messagesFor(locale).setPassword;
  const field = (name: 'password' | 'confirmation', label: string, describedBy: string[]) => {
    const problem = problems[name];
    const ids = [...describedBy, ...(problem ? [`${name}-error`] : [])];
    // The password, unless only its confirmation needs the user's attention.
    const focus = (name === 'confirmation') === Boolean(problems.confirmation && !problems.password);
    return `<label for="${name}">${escapeHtml(label)}</label>
<input id="${name}" name="${name}" type="password" autocomplete="new-password" required${problem ? ' aria-invalid="true"' : ''}${ids.length ? ` aria-describedby="${ids.join(' ')}"` : ''}${focus ? ' autofocus' : ''}>
${problem ? `<p id="${name}-error" class="field-error">${escapeHtml(text.problems[problem])}</p>` : ''}`;
  };
  return layout({
    title: text.title,
    nonce,
    lang: locale,
    body: `<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.intro(email))}</p>
${error ? `<p id="form-error" class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
<input type="hidden" name="key" value="${escapeHtml(key)}">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<input type="email" name="username" autocomplete="username" value="${escapeHtml(email)}" hidden readonly>
${field('password', text.password, ['password-rules'])}
<p id="password-rules" class="hint">${escapeHtml(text.rules)}</p>
${field('confirmation', text.confirmation, [])}
<button type="submit">${escapeHtml(text.submit)}</button>
</form>`,
  });
}
