import type { Locale } from '../locale';
import { escapeHtml, layout } from './html';

export interface MessagePageOptions {
  title: string;
  message: string;
  nonce: string;
  detail?: string;
  /** Defaults to English, for the pages that are not translated. */
  lang?: Locale;
}

/** Errors and notices the user can only read, e.g. an expired sign-in page. */
export function messagePage({ title, message, nonce, detail, lang }: MessagePageOptions): string {
  return layout({
    title,
    nonce,
    lang,
    body: `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${detail ? `<p><small>${escapeHtml(detail)}</small></p>` : ''}`,
  });
}
