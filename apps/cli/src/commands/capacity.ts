import { InvalidArgumentError, Option, type Command } from 'commander';
import { podKeyOf, parseKubernetesObjects, type Pod } from '@schedlab/k8s';
import { STOP_MAX_REPLICAS } from '@schedlab/scenarios';
import { analyzeDump, writeWarnings } from '../engine/analysis-input';
import type { SimulationFlags } from '../engine/run-simulation';
import { InputFileError, attributeTo } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import type { OutputFormat } from '../output/document';
import { outputOption, renderAnalysis, zoneLookup } from '../output/analysis';
import { dominantReason } from '../output/pod-status';
import { formatTable } from '../output/table';
import { addSimulationOptions, aliasedValue, simulationFlags, withExitCodes } from './simulation-options';

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
    throw new InputFileError(
      file,
      `expected exactly one Pod, got ${objects.map((o) => o.kind).join(', ') || 'no objects'}`,
    );
  }
  return pods[0] as unknown as Pod;
}

export function capacityOf(
  flags: SimulationFlags,
  podFile: string,
  maxReplicas: number,
): { document: CapacityDocument; warnings: string[] } {
  const template = loadPodTemplate(podFile);
  const { dump, outcome, warnings } = analyzeDump(
    flags,
    'capacity',
    { podTemplate: template, maxReplicas },
    (step) => attributeTo(podFile, step),
  );
  const result = outcome.result;
  const zoneOf = zoneLookup(dump.state.nodes);
  return {
    document: {
      compatibilityVersion: outcome.compatibilityVersion,
      pod: podKeyOf(template),
      maxReplicas,
      replicas: result.replicas,
      perNode: Object.entries(result.perNode)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([node, replicas]) => ({ node, zone: zoneOf(node), replicas })),
      stopReason: result.stopReason,
    },
    warnings,
  };
}

/** The stop reason in short (the dominant FitError reason); `wide` prints the FitError in full. */
export function formatCapacityTable(doc: CapacityDocument, { wide = false } = {}): string[] {
  const lines = doc.perNode.length
    ? formatTable(
        ['NODE', 'ZONE', 'REPLICAS'],
        doc.perNode.map((n) => [n.node, n.zone ?? '', String(n.replicas)]),
      )
    : ['no copy fits on any node'];
  lines.push(
    '',
    `${doc.replicas} copies of ${doc.pod} fit (kube-scheduler ${doc.compatibilityVersion} behaviour)`,
  );
  lines.push(
    doc.stopReason === STOP_MAX_REPLICAS
      ? `stopped at --max-replicas ${doc.maxReplicas}`
      : wide || dominantReason(doc.stopReason) === doc.stopReason
        ? `stopped: ${doc.stopReason}`
        : `stopped: ${dominantReason(doc.stopReason)} (-o wide for the full FitError)`,
  );
  return lines;
}

/**
 * `--pod-template`, or the deprecated `--pod` with kubectl's deprecation notice on stderr. Missing
 * both is commander's own one-line error for a required option.
 */
function podTemplateFlag(command: Command, options: Record<string, unknown>): string {
  const deprecated = options.pod as string | undefined;
  if (deprecated !== undefined)
    process.stderr.write('schedlab: Flag --pod has been deprecated, use --pod-template instead\n');
  const file = aliasedValue(options, ['--pod-template', '--pod'], ['podTemplate', 'pod']);
  if (file === undefined)
    return command.error("error: required option '--pod-template <file>' not specified");
  return file;
}

export function registerCapacityCommand(program: Command): void {
  const command = program
    .command('capacity')
    .description(
      'how many more copies of a pod fit: copies are scheduled one at a time, without preemption, until one fits nowhere',
    )
    .option('--pod-template <file>', 'the pod to copy (one Pod, YAML or JSON); required')
    // `--pod` names a pending pod (namespace/name) everywhere else: one flag, one meaning.
    .addOption(new Option('--pod <file>', 'deprecated: use --pod-template').hideHelp())
    .option('--max-replicas <n>', 'stop after this many copies', parsePositiveInteger, DEFAULT_MAX_REPLICAS)
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = capacityOf(
        simulationFlags(options),
        podTemplateFlag(command, options),
        options.maxReplicas as number,
      );
      writeWarnings(out.warnings);
      process.stdout.write(
        renderAnalysis(out.document, options.output as OutputFormat, (table) =>
          formatCapacityTable(out.document, table),
        ),
      );
    }),
  );
}
