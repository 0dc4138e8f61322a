import type { KubeObject } from '@schedlab/k8s';
import type { EngineSetup } from '@schedlab/scheduler';
import type { EngineOptions } from '@schedlab/scenarios';
import { describeSkipped, loadClusterDump, type ClusterDump } from '../input/cluster-dump';
import { checkedSetup, engineOptionsOf, type SimulationFlags } from './run-simulation';
import { materializeWorkloads } from './workloads';

/** What every analysis command starts from: the dump as it is once its workloads run. */
export interface AnalysisInput {
  dump: ClusterDump;
  items: KubeObject[];
  engine: EngineOptions;
  setup: EngineSetup;
  /** Lines for stderr: ignored objects and objects admission refused. */
  warnings: string[];
}

export function loadAnalysisInput(flags: SimulationFlags): AnalysisInput {
  const dump = loadClusterDump(flags.cluster);
  const engine = engineOptionsOf(flags);
  const setup = checkedSetup(flags, engine);
  const materialized = materializeWorkloads(flags.cluster, dump.objects, engine);
  const warnings = [
    ...describeSkipped(flags.cluster, dump.skipped),
    ...materialized.rejected.map((r) => `schedlab: ${flags.cluster}: admission rejected ${r.object}: ${r.message}`),
  ];
  return { dump, items: materialized.items, engine, setup, warnings };
}

export function writeWarnings(warnings: readonly string[]): void {
  for (const w of warnings) process.stderr.write(`${w}\n`);
}
