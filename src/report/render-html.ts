/**
 * Report model → one self-contained HTML file: the stylesheet, the data as an inert JSON
 * block and the script that draws the page (src/report/browser/, built into
 * dist/report-page/), all inline. A Content-Security-Policy admits only that one script (by
 * hash) and no network at all, so even text that somehow became markup could neither run
 * nor load anything.
 */
import { createHash } from 'node:crypto';
import { embedJson } from './embed-json.js';
import { readPageAssets } from './page-assets.js';
import type { ReportData } from './report-data.js';

export function renderReportHtml(data: ReportData): string {
  const { script, style } = readPageAssets();
  if (/<\/script/i.test(script)) throw new Error('the report script must not contain a closing script tag');
  if (/<\/style/i.test(style)) throw new Error('the report stylesheet must not contain a closing style tag');
  const title = `${data.overview.experiment ?? 'run'} · ${data.overview.id} · autoresearch report`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="autoresearch ${escapeHtml(data.toolVersion)}">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main id="app"><noscript>This report draws itself with a small inline script: enable JavaScript to read it.</noscript></main>
<script type="application/json" id="report-data">${embedJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}

/** Only the inline script runs; styles are inline; the served page may ask its own server for status. */
export function contentSecurityPolicy(): string {
  const hash = createHash('sha256').update(readPageAssets().script, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
