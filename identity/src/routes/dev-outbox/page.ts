import { html, type SafeHtml } from '@portal/service-kit';

import type { OutboxMail } from '../../mail/mailer';
import { layout, type PageFrame } from '../../views/layout';

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** The text with its http(s) addresses as links, which is all a mail here holds. */
function linkify(text: string): SafeHtml[] {
  const parts: SafeHtml[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    parts.push(html`${text.slice(last, match.index)}<a href="${match[0]}">${match[0]}</a>`);
    last = match.index + match[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return parts;
}

/**
 * The local outbox of the embedded default: every mail the provider would have sent, newest
 * first. The plain-text part is shown (with its links clickable) rather than the HTML part, so no
 * mail markup runs inside the provider's origin.
 */
export function outboxPage(frame: PageFrame, { mails, jsonHref }: { mails: OutboxMail[]; jsonHref: string }): string {
  const items = mails.map(
    (mail) => html`<article>
<h2>${mail.subject}</h2>
<p>To: ${mail.to}</p>
<p>Sent: <time datetime="${mail.sentAt}">${mail.sentAt}</time></p>
<pre>${linkify(mail.text)}</pre>
</article>`,
  );
  return layout(frame, {
    title: 'Outbox',
    wide: true,
    body: html`<h1>Outbox</h1>
<p>Mails the identity provider sent while no SMTP server is configured (<code>SMTP_URL</code>), newest first. As JSON: <a href="${jsonHref}">${jsonHref}</a>.</p>
${items.length ? items.map((item, index) => (index === 0 ? item : html`\n${item}`)) : html`<p>No mails yet.</p>`}`,
  });
}
