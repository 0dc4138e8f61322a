// Public API of @schedlab/report: the self-contained HTML report of a simulation run.
export * from './report-input';
export {
  buildRunReport,
  reportPodOf,
  DEFAULT_MAX_SCORES_PER_POD,
  type RunReportSource,
  type ReportableResult,
} from './build-report';
export { renderReportHtml, embeddableJson, escapeHtml } from './render-html';
export { buildStorageReport } from './build-storage';
export { scenarioReportOf, type ScenarioReport } from './build-scenario';
export { descheduleReportOf, type StoredDescheduling } from './build-deschedule';
export { timelineReportOf } from './build-timeline';
