import { escapeHtml, layout } from './html';

export const INVALID_CREDENTIALS = 'Invalid email or password.';

export interface SignInPageOptions {
  action: string;
  nonce: string;
  email?: string;
  error?: string;
}

export function signInPage({ action, nonce, email = '', error }: SignInPageOptions): string {
  const invalid = error ? ' aria-invalid="true" aria-describedby="sign-in-error"' : '';
  // Focus goes where the user has to type next: the email, or the password when the email is known.
  const focusEmail = !email;
  return layout({
    title: 'Sign in',
    nonce,
    body: `<h1>Sign in to your account</h1>
${error ? `<p id="sign-in-error" class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"${invalid}${focusEmail ? ' autofocus' : ''}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${invalid}${focusEmail ? '' : ' autofocus'}>
<button type="submit">Sign in</button>
</form>`,
  });
}
