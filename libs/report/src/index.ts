// Public API of @schedlab/report: the self-contained HTML report of a simulation run.
export * from './report-input';
export { buildRunReport, reportPodOf, type RunReportSource, type ReportableResult } from './build-report';
export { renderReportHtml, embeddableJson, escapeHtml } from './render-html';
