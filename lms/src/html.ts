import { readFileSync } from 'node:fs';
import { html, type SafeHtml } from '@portal/service-kit';

export { html, type SafeHtml } from '@portal/service-kit';

/** A whole page of the stand-in: our stylesheet only, no script unless `script` names one of ours. */
export function page(title: string, body: SafeHtml, options: { user?: { name: string } | null; script?: string; wide?: boolean } = {}): string {
  const nav = options.user
    ? html`<header class="bar"><nav aria-label="Learning platform"><a href="/course">Demo course</a> <a href="/gradebook">Gradebook</a> <a href="/d2l/home">Home</a></nav>
<form method="post" action="/logout" class="signout"><span>Signed in as ${options.user.name}</span> <button type="submit" class="secondary">Sign out</button></form></header>`
    : html`<header class="bar"><span class="brand">Learning platform (stand-in)</span></header>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Learning platform</title>
<link rel="stylesheet" href="/assets/lms.css">
${options.script ? html`<script src="${options.script}" defer></script>` : ''}
</head>
<body>
${nav}
<main${options.wide ? html` class="wide"` : ''}>
${body}
</main>
</body>
</html>
`.value;
}

/** The stand-in's only stylesheet, from our origin, so the CSP needs no inline styles. */
export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #6b2fa3; --error: #b3261e; --muted: #5f6b7a; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; }
.bar { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.5rem 1rem; padding: 0.5rem 1rem; border-bottom: 1px solid #c9d0da; }
.bar nav { display: flex; gap: 1rem; }
.bar a { color: var(--accent); }
.brand { font-weight: 600; }
.signout { display: flex; align-items: center; gap: 0.5rem; }
main { max-width: 56rem; margin: 0 auto; padding: 2rem 1rem 4rem; }
h1 { margin: 0 0 1rem; font-size: 1.75rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 0.75rem; }
.notice { padding: 0.75rem 1rem; border-left: 4px solid var(--accent); background: rgba(107, 47, 163, 0.08); }
.problem { padding: 0.75rem 1rem; border-left: 4px solid var(--error); background: rgba(179, 38, 30, 0.08); }
.field { margin-bottom: 1rem; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.field input, .field select { width: 100%; max-width: 24rem; padding: 0.5rem; font: inherit; border: 1px solid #8a94a3; border-radius: 4px; }
.links { list-style: none; padding: 0; }
.links li { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.5rem; padding: 0.75rem 0; border-bottom: 1px solid #c9d0da; }
.actions { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: 1rem; }
button { font: inherit; padding: 0.5rem 1.1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:focus-visible, input:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #c9d0da; }
.muted { color: var(--muted); }
.launch { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; }
.breadcrumb { margin: 0 0 0.5rem; }
main.wide { max-width: none; padding: 1rem; }
.tool-frame { display: block; width: 100%; height: calc(100vh - 10rem); min-height: 32rem; border: 1px solid #c9d0da; border-radius: 4px; }
`;

/** The embedded launch page's postMessage storage (assets/lti-storage.js, a browser file the tests load too). */
export const LTI_STORAGE_SCRIPT = readFileSync(new URL('../assets/lti-storage.js', import.meta.url), 'utf8');

/** Posts the form on load (the OIDC form_post response mode); the button is the no-script fallback. */
export const AUTOSUBMIT_SCRIPT = `document.querySelector('form[data-autosubmit]')?.submit();\n`;
