import type { Command } from 'commander';
import { objectKey } from '@schedlab/k8s';
import { runSimulation, type SimulationFlags } from '../engine/run-simulation';
import { UsageError } from '../input/errors';
import { formatExplanation } from '../output/explain';
import { progressBar } from '../output/progress';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

/** `name` alone means the default namespace, as with kubectl. */
export function podKeyOf(reference: string): string {
  return reference.includes('/') ? reference : `default/${reference}`;
}

/**
 * Simulates the whole dump (pods ahead in the queue change what is left) and explains one pod's
 * decision. Throws a UsageError when the pod is missing or not pending.
 */
export function explainPod(flags: SimulationFlags, podReference: string, onProgress?: (done: number, total: number) => void): string[] {
  const key = podKeyOf(podReference);
  const run = runSimulation(flags, onProgress);
  const result = run.result.results.find((r) => r.pod === key);
  if (!result) {
    const running = run.dump.state.runningPods.find((p) => objectKey(p) === key);
    if (running) {
      throw new UsageError(`--pod ${key}: the pod is not pending, it runs on ${running.spec?.nodeName} (spec.nodeName); explain needs a pod without spec.nodeName`);
    }
    throw new UsageError(`--pod ${key}: no such pod in ${flags.cluster}`);
  }
  const profile = run.setup.configuration.profiles.find((p) => p.schedulerName === result.schedulerName);
  return formatExplanation({ result, nodes: run.dump.state.nodes, profile });
}

export function registerExplainCommand(program: Command): void {
  const command = program
    .command('explain')
    .description('explain one pending pod: per-node filter verdicts, per-plugin scores and preemption')
    .requiredOption('--pod <namespace/name>', 'the pending pod to explain');
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const lines = explainPod(simulationFlags(options), options.pod as string, progressBar());
      process.stdout.write(`${lines.join('\n')}\n`);
    }),
  );
}
