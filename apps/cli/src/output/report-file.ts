import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TimelineResult } from '@schedlab/analysis';
import type { KubeObject } from '@schedlab/k8s';
import {
  buildRunReport,
  buildStorageReport,
  renderReportHtml,
  timelineReportOf,
  type ReportInput,
  type TimelineReportInput,
  type ReportRun,
  type ReportStorage,
} from '@schedlab/report';
import type { SimulationRun } from '../engine/run-simulation';
import { UsageError } from '../input/errors';

/** The report of a scenario, shared with the service: @schedlab/report scenarioReportOf. */
export { scenarioReportOf } from '@schedlab/report';
/** The report of a descheduling what-if, shared with the service: @schedlab/report descheduleReportOf. */
export { descheduleReportOf } from '@schedlab/report';

/** Writes a timeline run's report (pending over time, waiting-time histogram). */
export function writeTimelineReport(file: string, result: TimelineResult, title: string): void {
  writeReportHtml(file, timelineReportOf(result, title));
}

/**
 * The report of one `simulate` run: the dump's nodes and every pod of the run (expanded workload
 * pods included) after the engine placed them.
 */
export function reportRunOf(run: SimulationRun, label: string): ReportRun {
  return buildRunReport({ label, nodes: run.dump.state.nodes, pods: run.pods, result: run.result });
}

/** The claims and volumes of a `simulate` run once the engine bound and provisioned them. */
export function simulationStorageOf(run: SimulationRun): ReportStorage | undefined {
  return buildStorageReport([
    ...run.dump.state.nodes,
    ...run.pods,
    ...run.objects.persistentVolumes.list(),
    ...run.objects.persistentVolumeClaims.list(),
  ] as unknown as KubeObject[]);
}

/** Writes the self-contained HTML report; an unwritable path is a usage error naming it. */
export function writeReportFile(file: string, run: ReportRun, title: string, storage?: ReportStorage): void {
  writeReportHtml(file, { title, runs: [run], ...(storage ? { storage } : {}) });
}

/** Writes any report (e.g. a deschedule run's before and after); an unwritable path is a usage error. */
export function writeReportHtml(file: string, input: ReportInput | TimelineReportInput): void {
  try {
    writeFileSync(file, renderReportHtml(input));
  } catch (error) {
    throw new UsageError(
      `--report ${file}: cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

export const reportTitleOf = (clusterFile: string) => `Schedlab simulation of ${path.basename(clusterFile)}`;
