import { html, type SafeHtml } from '@portal/service-kit';

export { html, type SafeHtml } from '@portal/service-kit';

export function document(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="/assets/simulator.css">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.value;
}
