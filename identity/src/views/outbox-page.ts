import type { OutboxMail } from '../mailer';
import { escapeHtml, layout } from './html';

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/** Escapes the text and turns its http(s) addresses into links, which is all a mail here holds. */
function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    html += escapeHtml(text.slice(last, match.index));
    const url = escapeHtml(match[0]);
    html += `<a href="${url}">${url}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

/**
 * The local outbox of the embedded default: every mail the provider would have sent, newest
 * first. The plain-text part is shown (with its links clickable) rather than the HTML part, so no
 * mail markup runs inside the provider's origin.
 */
export function outboxPage({ mails, nonce, jsonHref }: { mails: OutboxMail[]; nonce: string; jsonHref: string }): string {
  const items = mails.map(
    (mail) => `<article>
<h2>${escapeHtml(mail.subject)}</h2>
<p>To: ${escapeHtml(mail.to)}</p>
<p>Sent: <time datetime="${escapeHtml(mail.sentAt)}">${escapeHtml(mail.sentAt)}</time></p>
<pre>${linkify(mail.text)}</pre>
</article>`,
  );
  return layout({
    title: 'Outbox',
    nonce,
    wide: true,
    body: `<h1>Outbox</h1>
<p>Mails the identity provider sent while no SMTP server is configured (<code>SMTP_URL</code>), newest first. As JSON: <a href="${escapeHtml(jsonHref)}">${escapeHtml(jsonHref)}</a>.</p>
${items.length ? items.join('\n') : '<p>No mails yet.</p>'}`,
  });
}
