import type { Command } from 'commander';
import { podKeyOf, podKeyOfReference } from '@schedlab/k8s';
import { runSimulation, type SimulationFlags } from '../engine/run-simulation';
import { UsageError } from '../input/errors';
import { isTableFormat, renderDocument, type OutputFormat } from '../output/document';
import { outputOption } from '../output/analysis';
import {
  explanationDocument,
  formatExplanation,
  type ExplainDetail,
  type ExplainInput,
} from '../output/explain';
import { progressBar } from '../output/progress';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

/**
 * Replays the dump up to the pod (pods ahead in the queue change what is left) with that pod's
 * attempts recorded in full, and returns what explaining it needs. Throws a UsageError when the
 * pod is missing or not pending.
 */
export function explainInput(
  flags: SimulationFlags,
  podReference: string,
  onProgress?: (done: number, total: number) => void,
): ExplainInput {
  const key = podKeyOfReference(podReference);
  const run = runSimulation(flags, onProgress, { explainPod: key });
  const result = run.result.results.find((r) => r.pod === key);
  if (!result) {
    const running = run.dump.state.runningPods.find((p) => podKeyOf(p) === key);
    if (running) {
      throw new UsageError(
        `--pod ${key}: the pod is not pending, it runs on ${running.spec?.nodeName} (spec.nodeName); explain needs a pod without spec.nodeName`,
      );
    }
    throw new UsageError(`--pod ${key}: no such pod in ${flags.cluster}`);
  }
  const profile = run.setup.configuration.profiles.find((p) => p.schedulerName === result.schedulerName);
  return {
    result,
    nodes: run.dump.state.nodes,
    profile,
    percentageOfNodesToScore: run.setup.configuration.percentageOfNodesToScore,
  };
}

export function explainPod(
  flags: SimulationFlags,
  podReference: string,
  detail: ExplainDetail = { kind: 'summary' },
): string[] {
  return formatExplanation(explainInput(flags, podReference), detail);
}

function detailOf(options: Record<string, unknown>, input: ExplainInput): ExplainDetail {
  if (options.allNodes && options.node !== undefined)
    throw new UsageError('--node and --all-nodes: give one of them');
  if (options.allNodes) return { kind: 'all-nodes' };
  if (options.node === undefined) return { kind: 'summary' };
  const node = options.node as string;
  if (!input.nodes.some((n) => n.metadata?.name === node))
    throw new UsageError(`--node ${node}: no such node in the cluster dump`);
  return { kind: 'node', node };
}

export function registerExplainCommand(program: Command): void {
  const command = program
    .command('explain')
    .description(
      'explain one pending pod: nodes searched, filter failures by reason, the best-scored nodes, preemption',
    )
    .requiredOption('--pod <namespace/name>', 'the pending pod to explain')
    .option('--node <name>', "also show this node's filter verdict and plugin scores")
    .option('--all-nodes', "also show every node's filter verdict and every feasible node's scores")
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const input = explainInput(simulationFlags(options), options.pod as string, progressBar());
      const detail = detailOf(options, input);
      const format = options.output as OutputFormat;
      // explain's table already holds every message in full: wide is the same table.
      if (!isTableFormat(format)) {
        process.stdout.write(renderDocument(explanationDocument(input, detail), format));
        return;
      }
      process.stdout.write(`${formatExplanation(input, detail).join('\n')}\n`);
    }),
  );
}
