/**
 * One self-contained HTML page per report: inline CSS and script, the data embedded as JSON, no
 * network. The script builds the page with textContent only, so names and messages from the
 * cluster can never become markup.
 */
import type { ReportInput, TimelineReportInput } from './report-input';
import { REPORT_SCRIPT } from './report-script';
import { REPORT_STYLE } from './report-style';

/** JSON that is safe inside a <script> element: no "</script>", no "<!--", no JS line terminators. */
export function embeddableJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Text for HTML outside the script (only the title is written there). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function renderReportHtml(input: ReportInput | TimelineReportInput): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(input.title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(input.title)}</h1>
<div role="group" aria-label="Heat map resource" class="toggle">
<button type="button" data-resource="cpu" aria-pressed="true">CPU</button>
<button type="button" data-resource="memory" aria-pressed="false">Memory</button>
</div></header>
<main id="report" aria-live="polite"><noscript>This report needs JavaScript to draw its views.</noscript></main>
<script type="application/json" id="report-data">${embeddableJson(input)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
