import { html, SafeHtml } from '@portal/service-kit';

import { layout, type PageFrame } from '../views/layout';

export interface LogoutPageOptions {
  /** The provider's form (id `op.logoutForm`) carrying its anti-forgery token: its own markup. */
  form: string;
  /** Submit without a click: the request carried an ID token of this very session. */
  autoSubmit: boolean;
  /** Where "Stay signed in" leads (the portal named by the request), if anywhere. */
  stayHref?: string;
}

const AUTO_SUBMIT = new SafeHtml(
  `document.addEventListener('DOMContentLoaded',function(){var f=document.getElementById('op.logoutForm');` +
    `var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit();});`,
);

export function logoutPage(frame: PageFrame, { form, autoSubmit, stayHref }: LogoutPageOptions): string {
  // "Stay signed in" must not submit the form: the library treats a submission without
  // logout=yes as "log out of the requesting client only" and revokes its tokens anyway.
  const stay = stayHref
    ? html`<a class="button secondary" href="${stayHref}">Stay signed in</a>`
    : html`<p>To stay signed in, close this page.</p>`;
  return layout(frame, {
    title: 'Log out',
    body: html`<h1>Log out</h1>
<p>${autoSubmit ? 'Logging you out…' : `Do you want to log out of the ${frame.productName}?`}</p>
${new SafeHtml(form)}
<button type="submit" form="op.logoutForm" name="logout" value="yes"${autoSubmit ? '' : html` autofocus`}>Log out</button>
${autoSubmit ? '' : stay}`,
    script: autoSubmit ? AUTO_SUBMIT : undefined,
  });
}
