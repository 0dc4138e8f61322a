/**
 * The report of a descheduling what-if: the cluster before and after (heat maps from the
 * report's own figures: requested vs allocatable per node, the pods on each), the replacements'
 * scheduling with their explanations, and a descheduling section: every eviction with where its
 * pod went, spread skews and violations before and after, oscillation. Drawn from the stored
 * result alone, so the CLI (`deschedule --report`) and the API (a deschedule run's report) need
 * no recomputation.
 */
import type { DeschedulingReport, NodeFigures } from '@schedlab/scenarios';
import { reportPodOf } from './build-report';
import type { ReportDescheduling, ReportInput, ReportNode, ReportRun } from './report-input';

/** A deschedule run's stored result: the report without the cluster it ends with. */
export type StoredDescheduling = Omit<DeschedulingReport, 'items'>;

const reportNode = (n: NodeFigures): ReportNode => ({
  name: n.name,
  zone: n.zone,
  allocatable: { cpu: n.cpu.allocatable, memory: n.memory.allocatable },
  requested: { cpu: n.cpu.requested, memory: n.memory.requested },
  pods: n.podNames,
  unschedulable: n.unschedulable,
});

export function descheduleReportOf(
  report: StoredDescheduling,
  compatibilityVersion: string,
  title: string,
  label: string,
): ReportInput {
  const before: ReportRun = {
    label,
    compatibilityVersion,
    nodes: report.before.nodes.map(reportNode),
    pods: [],
  };
  const after: ReportRun = {
    label: `${label} once descheduled`,
    compatibilityVersion,
    nodes: report.after.nodes.map(reportNode),
    pods: report.scheduling.map((r) => reportPodOf(r)),
  };
  const descheduling: ReportDescheduling = {
    rounds: report.rounds.map(({ evictions: _evictions, ...round }) => round),
    evictions: report.evictions,
    converged: report.converged,
    oscillation: report.oscillation,
    summary: report.summary,
    spread: { before: report.before.spread, after: report.after.spread },
    violations: { before: report.before.violations, after: report.after.violations },
    zones: { before: report.before.zones, after: report.after.zones },
  };
  return { title, runs: [before, after], descheduling };
}
