/** The page's only stylesheet, served from our origin so the CSP needs no inline styles. */
export const STYLESHEET = `
:root { color-scheme: light dark; --accent: #0b5cad; --error: #b3261e; --muted: #5f6b7a; }
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.5; }
main { max-width: 64rem; margin: 0 auto; padding: 2rem 1rem 4rem; }
h1 { margin: 0 0 1rem; font-size: 1.75rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 0.75rem; }
.facts { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; margin: 0 0 1.5rem; }
.facts div { display: flex; gap: 0.5rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; }
.notice { padding: 0.75rem 1rem; border-left: 4px solid var(--accent); background: rgba(11, 92, 173, 0.08); }
.problem { padding: 0.75rem 1rem; border-left: 4px solid var(--error); background: rgba(179, 38, 30, 0.08); }
.problem ul { margin: 0.25rem 0 0; padding-left: 1.25rem; }
form.settings { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 1rem; align-items: end; }
.field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.field input { width: 100%; padding: 0.5rem; font: inherit; border: 1px solid #8a94a3; border-radius: 4px; }
.field input[aria-invalid="true"] { border-color: var(--error); }
.field .error { color: var(--error); margin: 0.25rem 0 0; font-size: 0.9rem; }
.actions { display: flex; flex-wrap: wrap; gap: 1rem; margin-top: 1rem; }
button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button:focus-visible, input:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.captures { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 1rem; }
.captures figure { margin: 0; }
.captures img { width: 100%; height: auto; background: #000; border-radius: 4px; }
.captures figcaption { font-size: 0.9rem; color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid #c9d0da; }
.muted { color: var(--muted); }
`;
