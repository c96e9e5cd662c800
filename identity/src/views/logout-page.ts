import { layout } from './html';

export interface LogoutPageOptions {
  /** The provider's form (id `op.logoutForm`) carrying its anti-forgery token. */
  form: string;
  nonce: string;
  /** Submit without a click: the request names a registered client, so it came from our app. */
  autoSubmit: boolean;
}

export function logoutPage({ form, nonce, autoSubmit }: LogoutPageOptions): string {
  return layout({
    title: 'Log out',
    nonce,
    body: `<h1>Log out</h1>
<p>${autoSubmit ? 'Logging you out…' : 'Do you want to log out of the Simulation Portal?'}</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes"${autoSubmit ? '' : ' autofocus'}>Log out</button>
${autoSubmit ? '' : '<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>'}`,
    script: autoSubmit
      ? `document.addEventListener('DOMContentLoaded',function(){var f=document.getElementById('op.logoutForm');` +
        `var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();});`
      : undefined,
  });
}
