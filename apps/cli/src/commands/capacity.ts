import { InvalidArgumentError, type Command } from 'commander';
import { parseKubernetesObjects, type Pod } from '@schedlab/k8s';
import { STOP_MAX_REPLICAS, capacity } from '@schedlab/scenarios';
import { loadAnalysisInput, writeWarnings } from '../engine/analysis-input';
import type { SimulationFlags } from '../engine/run-simulation';
import { InputFileError, attributeTo } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import type { OutputFormat } from '../output/document';
import { outputOption, renderAnalysis, zoneLookup } from '../output/analysis';
import { formatTable } from '../output/table';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

export const DEFAULT_MAX_REPLICAS = 1000;

export interface CapacityDocument {
  compatibilityVersion: string;
  /** `namespace/name` of the template pod. */
  pod: string;
  maxReplicas: number;
  /** Copies of the pod that fit, placed one after another. */
  replicas: number;
  perNode: { node: string; zone: string | null; replicas: number }[];
  /** `maxReplicas`, or the FitError of the first copy that fit nowhere. */
  stopReason: string;
}

export function parsePositiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  }
  return Number(value);
}

/** The single Pod of a template file. */
export function loadPodTemplate(file: string): Pod {
  const { objects } = attributeTo(file, () => parseKubernetesObjects(readInputFile(file)));
  const pods = objects.filter((o) => o.kind === 'Pod');
  if (objects.length !== 1 || pods.length !== 1) {
    throw new InputFileError(file, `expected exactly one Pod, got ${objects.map((o) => o.kind).join(', ') || 'no objects'}`);
  }
  return pods[0] as unknown as Pod;
}

export function capacityOf(flags: SimulationFlags, podFile: string, maxReplicas: number): { document: CapacityDocument; warnings: string[] } {
  const input = loadAnalysisInput(flags);
  const template = loadPodTemplate(podFile);
  const result = attributeTo(podFile, () => capacity(input.items, { podTemplate: template, maxReplicas }, { ...input.engine }));
  const zoneOf = zoneLookup(input.dump.state.nodes);
  return {
    document: {
      compatibilityVersion: input.setup.features.version,
      pod: `${template.metadata?.namespace || 'default'}/${template.metadata?.name ?? ''}`,
      maxReplicas,
      replicas: result.replicas,
      perNode: Object.entries(result.perNode)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([node, replicas]) => ({ node, zone: zoneOf(node), replicas })),
      stopReason: result.stopReason,
    },
    warnings: input.warnings,
  };
}

export function formatCapacityTable(doc: CapacityDocument): string[] {
  const lines = doc.perNode.length
    ? formatTable(['NODE', 'ZONE', 'REPLICAS'], doc.perNode.map((n) => [n.node, n.zone ?? '', String(n.replicas)]))
    : ['no copy fits on any node'];
  lines.push('', `${doc.replicas} copies of ${doc.pod} fit (kube-scheduler ${doc.compatibilityVersion} behaviour)`);
  lines.push(doc.stopReason === STOP_MAX_REPLICAS ? `stopped at --max-replicas ${doc.maxReplicas}` : `stopped: ${doc.stopReason}`);
  return lines;
}

export function registerCapacityCommand(program: Command): void {
  const command = program
    .command('capacity')
    .description('how many more copies of a pod fit: copies are scheduled one at a time, without preemption, until one fits nowhere')
    .requiredOption('--pod <file>', 'the pod to copy (one Pod, YAML or JSON)')
    .option('--max-replicas <n>', 'stop after this many copies', parsePositiveInteger, DEFAULT_MAX_REPLICAS)
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = capacityOf(simulationFlags(options), options.pod as string, options.maxReplicas as number);
      writeWarnings(out.warnings);
      process.stdout.write(renderAnalysis(out.document, options.output as OutputFormat, () => formatCapacityTable(out.document)));
    }),
  );
}
