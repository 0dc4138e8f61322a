import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildRunReport, renderReportHtml, type ReportRun } from '@schedlab/report';
import type { SimulationRun } from '../engine/run-simulation';
import { UsageError } from '../input/errors';

/**
 * The report of one `simulate` run: the dump's nodes and every pod of the run (expanded workload
 * pods included) after the engine placed them.
 */
export function reportRunOf(run: SimulationRun, label: string): ReportRun {
  return buildRunReport({ label, nodes: run.dump.state.nodes, pods: run.pods, result: run.result });
}

/** Writes the self-contained HTML report; an unwritable path is a usage error naming it. */
export function writeReportFile(file: string, run: ReportRun, title: string): void {
  try {
    writeFileSync(file, renderReportHtml({ title, runs: [run] }));
  } catch (error) {
    throw new UsageError(
      `--report ${file}: cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
}

export const reportTitleOf = (clusterFile: string) => `Schedlab simulation of ${path.basename(clusterFile)}`;
