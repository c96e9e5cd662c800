import { html, SafeHtml } from '@portal/service-kit';

import { DEFAULT_LOCALE, type Locale } from '../i18n/locale';

/** What every page is rendered with: the response's CSP nonce and the product it belongs to. */
export interface PageFrame {
  nonce: string;
  /** PRODUCT_NAME: in the title and above the heading of every page. */
  productName: string;
}

const STYLES = new SafeHtml(`
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f5f8;color:#1b1f24;line-height:1.5}
main{width:100%;max-width:24rem;margin:1rem;padding:2rem;background:#fff;border-radius:8px;
  box-shadow:0 1px 3px rgba(0,0,0,.15)}
.product{margin:0 0 .25rem;font-size:1rem;font-weight:600;color:#0b5cad}
h1{margin:0 0 1.5rem;font-size:1.5rem}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{width:100%;padding:.6rem .75rem;font:inherit;border:1px solid #6b7280;border-radius:4px}
input:focus-visible,button:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
input[aria-invalid=true]{border-color:#b42318}
button{margin-top:1.5rem;width:100%;padding:.7rem 1rem;font:inherit;font-weight:600;color:#fff;
  background:#0b5cad;border:0;border-radius:4px;cursor:pointer}
button:hover{background:#094a8b}
button.secondary{color:#0b5cad;background:#fff;border:1px solid #0b5cad;margin-top:.75rem}
a.button{display:block;margin-top:.75rem;padding:.7rem 1rem;text-align:center;font-weight:600;border-radius:4px;text-decoration:none}
a.button.secondary{color:#0b5cad;background:#fff;border:1px solid #0b5cad}
a.button:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
.code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:1.5rem;letter-spacing:.1em}
.wide{max-width:48rem}
.hint{margin:.25rem 0 0;font-size:.875rem;color:#4b5563}
.field-error{margin:.25rem 0 0;font-size:.875rem;color:#b42318;font-weight:600}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;background:#f3f5f8;padding:.75rem;border-radius:4px}
article{border-top:1px solid #d0d5dd;padding-top:1rem;margin-top:1rem}
article h2{margin:0;font-size:1.1rem}
article p{margin:.25rem 0}
.error{margin:0 0 1rem;padding:.75rem 1rem;color:#7a1010;background:#fdecea;border:1px solid #b42318;border-radius:4px}
`);

export interface LayoutOptions {
  title: string;
  body: SafeHtml;
  /** Inline script of our own (never user data), allowed by the nonce. */
  script?: SafeHtml;
  /** Defaults to English, the language of pages that are not translated. */
  lang?: Locale;
  /** For lists (the outbox) rather than a form. */
  wide?: boolean;
}

export function layout(
  { nonce, productName }: PageFrame,
  { title, body, script, lang = DEFAULT_LOCALE, wide = false }: LayoutOptions,
): string {
  return html`<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – ${productName}</title>
<style nonce="${nonce}">${STYLES}</style>
</head>
<body>
<main${wide ? html` class="wide"` : ''}>
<p class="product">${productName}</p>
${body}
</main>
${script ? html`<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>
`.value;
}
