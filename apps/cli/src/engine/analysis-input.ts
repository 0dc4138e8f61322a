import {
  runAnalysis,
  type AnalysisOutcome,
  type AnalysisType,
  type RequestOf,
  type ResultOf,
} from '@schedlab/analysis';
import { describeSkipped, loadClusterDump, type ClusterDump } from '../input/cluster-dump';
import { analysisOptionsOf, pipelineHooks, type SimulationFlags } from './run-simulation';

/** An analysis of a dump: the dump as loaded, the pipeline's outcome and the lines for stderr. */
export interface DumpAnalysis<T extends AnalysisType> {
  dump: ClusterDump;
  outcome: AnalysisOutcome<ResultOf<T>>;
  /** Lines for stderr: ignored objects and objects admission refused. */
  warnings: string[];
}

/**
 * Runs one analysis of the dump through the pipeline (@schedlab/analysis). `attribute` wraps the
 * analysis step when its errors belong to another input file (a pod template, a scenario).
 */
export function analyzeDump<T extends AnalysisType>(
  flags: SimulationFlags,
  type: T,
  request: RequestOf<T>,
  attribute?: <R>(step: () => R) => R,
): DumpAnalysis<T> {
  const dump = loadClusterDump(flags.cluster);
  const hooks = pipelineHooks(flags);
  const outcome = runAnalysis(type, dump.objects, analysisOptionsOf(flags), request, {
    ...hooks,
    ...(attribute ? { analysis: attribute } : {}),
  });
  const warnings = [
    ...describeSkipped(flags.cluster, dump.skipped),
    ...outcome.rejected.map(
      (r) => `schedlab: ${flags.cluster}: admission rejected ${r.object}: ${r.message}`,
    ),
  ];
  return { dump, outcome, warnings };
}

export function writeWarnings(warnings: readonly string[]): void {
  for (const w of warnings) process.stderr.write(`${w}\n`);
}
