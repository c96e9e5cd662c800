import { html } from '@portal/service-kit';

import type { Locale } from '../i18n/locale';
import { layout, type PageFrame } from './layout';

export interface MessagePageOptions {
  title: string;
  message: string;
  detail?: string;
  /** Defaults to English, for the pages that are not translated. */
  lang?: Locale;
}

/** Errors and notices the user can only read, e.g. an expired sign-in page. */
export function messagePage(frame: PageFrame, { title, message, detail, lang }: MessagePageOptions): string {
  return layout(frame, {
    title,
    lang,
    body: html`<h1>${title}</h1>
<p>${message}</p>
${detail ? html`<p><small>${detail}</small></p>` : ''}`,
  });
}
