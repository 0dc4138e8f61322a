import path from 'node:path';
import type { Command } from 'commander';
import { runSimulation, type SimulationFlags } from '../engine/run-simulation';
import { rejectedKey } from '../engine/workloads';
import { describeSkipped } from '../input/cluster-dump';
import { isTableFormat, renderDocument, type OutputFormat } from '../output/document';
import { outputOption } from '../output/analysis';
import { formatPlacementTable, simulationDocument, type SimulationDocument } from '../output/placements';
import { progressBar } from '../output/progress';
import { formatStorageTables, withStorage } from '../output/storage';
import { formatDeviceTables, formatPlacementDevices } from '../output/devices';
import type { ReportRun, ReportStorage } from '@schedlab/report';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

// Loaded only with --report and --scenario: the report library and the scenario machinery.
const reportFile = () => require('../output/report-file') as typeof import('../output/report-file');
const scenario = () => require('./scenario') as typeof import('./scenario');

export interface SimulateOutput {
  document: SimulationDocument;
  /** Lines for stderr: objects of unknown kinds that were ignored. */
  warnings: string[];
  /** The visual report's data for this run (built on demand: it copies every explanation). */
  report: () => ReportRun;
  /** The report's storage section: claims and volumes per zone (none without any). */
  storage: () => ReportStorage | undefined;
}

/**
 * Schedules every pending pod of the dump and returns the result document (no printing).
 * `explanations: false` when the report will not be asked for: the document holds none, so the
 * engine records only what placements need (same decisions and messages, less work).
 */
export function simulateDump(
  flags: SimulationFlags,
  onProgress?: (done: number, total: number) => void,
  { explanations = true }: { explanations?: boolean } = {},
): SimulateOutput {
  const run = runSimulation(flags, onProgress, explanations ? {} : { explain: 'summary' });
  return {
    document: withStorage(
      simulationDocument(
        run.result,
        run.dump.state.nodes,
        run.rejected.map((r) => ({ object: rejectedKey(r), message: r.message })),
      ),
      { objects: run.objects, nodes: run.dump.state.nodes, pods: run.pods, results: run.result.results },
    ),
    warnings: describeSkipped(flags.cluster, run.dump.skipped),
    report: () => reportFile().reportRunOf(run, path.basename(flags.cluster)),
    storage: () => reportFile().simulationStorageOf(run),
  };
}

export function renderSimulation(document: SimulationDocument, format: OutputFormat): string {
  if (!isTableFormat(format)) return renderDocument(document, format);
  const wide = format === 'wide';
  const storageLines = document.storage ? formatStorageTables(document.storage) : [];
  const deviceLines = document.devices
    ? [
        ...formatDeviceTables(document.devices, { wide }),
        ...(wide ? formatPlacementDevices(document.placements) : []),
      ]
    : [];
  const placements = formatPlacementTable(document, { wide });
  return `${[...placements, ...storageLines, ...deviceLines].join('\n')}\n`;
}

export function registerSimulateCommand(program: Command): void {
  const command = program
    .command('simulate')
    .description('schedule every pending pod of a cluster dump as kube-scheduler would, offline')
    .addOption(outputOption())
    .option(
      '--scenario <file>',
      'what-if steps (drain, zoneOutage, scale, apply…) to run after scheduling; see docs/scenarios.md',
    )
    .option(
      '--report <file.html>',
      'also write a self-contained HTML report (heat map, pending reasons, per-pod breakdown, volumes per zone; with --scenario the cluster after the last step and the data-loss report); see docs/report.md',
    );
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      if (options.scenario !== undefined) {
        const { renderScenarioSimulation, simulateScenarioDump } = scenario();
        const scenarioOut = simulateScenarioDump(simulationFlags(options), options.scenario as string);
        for (const warning of scenarioOut.warnings) process.stderr.write(`${warning}\n`);
        process.stdout.write(renderScenarioSimulation(scenarioOut.document, options.output as OutputFormat));
        if (options.report !== undefined) {
          const { reportTitleOf, writeReportFile } = reportFile();
          const { run, storage } = scenarioOut.report();
          writeReportFile(options.report as string, run, reportTitleOf(options.cluster as string), storage);
        }
        return;
      }
      const out = simulateDump(simulationFlags(options), progressBar(), {
        explanations: options.report !== undefined,
      });
      for (const warning of out.warnings) process.stderr.write(`${warning}\n`);
      process.stdout.write(renderSimulation(out.document, options.output as OutputFormat));
      if (options.report !== undefined) {
        const { reportTitleOf, writeReportFile } = reportFile();
        writeReportFile(
          options.report as string,
          out.report(),
          reportTitleOf(options.cluster as string),
          out.storage(),
        );
      }
    }),
  );
}
