/**
 * The analysis pipeline, the one path from a cluster's objects to an analysis result for the CLI
 * (embedded) and the worker (a run on an engine thread):
 *
 *   objects → PV controller (settleClaimsOf) → engine setup (profile, release) →
 *   [workloads started (materializeWorkloads), for `running` analyses] → the analysis.
 *
 * Pure and synchronous: no I/O. Callers read their input (files, stored snapshots) and shape the
 * result (documents, rows); errors are thrown as the libraries throw them, for the caller to
 * attribute (the CLI names the file, the worker fails the run).
 */
import type { KubeObject } from '@schedlab/k8s';
import { setupEngine, type ClusterState } from '@schedlab/scheduler';
import type { AnalysisOutcome } from './analysis';
import { materializeWorkloads, settleClaimsOf } from './cluster';
import { engineOptionsOf, type AnalysisOptions, type ProgressReport } from './options';
import { ANALYSES, type AnalysisType, type RequestOf, type ResultOf } from './registry';

export interface PipelineHooks {
  report?: ProgressReport;
  /**
   * Wraps each step that reads the cluster's objects (settling, starting workloads, the
   * analysis): the CLI attributes the errors to the dump file there.
   */
  cluster?: <T>(step: () => T) => T;
  /** Wraps the engine setup: the CLI attributes profile and version errors there. */
  setup?: <T>(step: () => T) => T;
  /**
   * Wraps the analysis itself, when its errors come from its request rather than the cluster (a
   * pod template, a scenario file); default `cluster`.
   */
  analysis?: <T>(step: () => T) => T;
  /**
   * The state buildClusterState returns for exactly `objects`, when the caller has it (the CLI,
   * from loading the dump): settling and scheduling start from it instead of building their own.
   */
  known?: ClusterState;
}

const direct = <T>(step: () => T): T => step();

export function runAnalysis<T extends AnalysisType>(
  type: T,
  objects: readonly KubeObject[],
  options: AnalysisOptions,
  request: RequestOf<T>,
  hooks: PipelineHooks = {},
): AnalysisOutcome<ResultOf<T>> {
  const report = hooks.report ?? (() => undefined);
  const inCluster = hooks.cluster ?? direct;
  const analysis = ANALYSES[type] as {
    start: 'settled' | 'running';
    run(context: unknown, request: unknown): ResultOf<T>;
  };
  const engine = engineOptionsOf(options);
  const { items: settled, state: settledState } = inCluster(() =>
    settleClaimsOf(objects, options, hooks.known),
  );
  const setup = (hooks.setup ?? direct)(() => setupEngine(engine));
  const started =
    analysis.start === 'running' ? inCluster(() => materializeWorkloads(settled, engine)) : undefined;
  const items = started?.items ?? settled;
  const result = (hooks.analysis ?? inCluster)(() =>
    analysis.run(
      {
        items,
        engine,
        setup,
        report,
        initial: started?.initial,
        pvController: options.pvController !== false,
        state: started ? undefined : settledState,
      },
      request,
    ),
  );
  return {
    result,
    compatibilityVersion: setup.features.version,
    setup,
    rejected: started?.rejected ?? [],
    initial: started?.initial,
    items,
  };
}
