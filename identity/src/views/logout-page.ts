import { escapeHtml, layout } from './html';

export interface LogoutPageOptions {
  /** The provider's form (id `op.logoutForm`) carrying its anti-forgery token. */
  form: string;
  nonce: string;
  /** Submit without a click: the request carried an ID token of this very session. */
  autoSubmit: boolean;
  /** Where "Stay signed in" leads (the portal named by the request), if anywhere. */
  stayHref?: string;
}

export function logoutPage({ form, nonce, autoSubmit, stayHref }: LogoutPageOptions): string {
  // "Stay signed in" must not submit the form: the library treats a submission without
  // logout=yes as "log out of the requesting client only" and revokes its tokens anyway.
  const stay = stayHref
    ? `<a class="button secondary" href="${escapeHtml(stayHref)}">Stay signed in</a>`
    : '<p>To stay signed in, close this page.</p>';
  return layout({
    title: 'Log out',
    nonce,
    body: `<h1>Log out</h1>
<p>${autoSubmit ? 'Logging you out…' : 'Do you want to log out of the Simulation Portal?'}</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes"${autoSubmit ? '' : ' autofocus'}>Log out</button>
${autoSubmit ? '' : stay}`,
    script: autoSubmit
      ? `document.addEventListener('DOMContentLoaded',function(){var f=document.getElementById('op.logoutForm');` +
        `var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();});`
      : undefined,
  });
}
