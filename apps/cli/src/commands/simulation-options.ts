import { InvalidArgumentError, Option, type Command } from 'commander';
import { FeatureSet, NEWEST_VERSION, SUPPORTED_VERSIONS, type TieBreak } from '@schedlab/scheduler';
import type { SimulationFlags } from '../engine/run-simulation';
import { EXIT_CODES_HELP, reportFailure } from '../input/errors';

/** Like the engine, the CLI reproduces the newest supported release unless told otherwise. */
export const DEFAULT_CLI_VERSION = NEWEST_VERSION;

function parseSeed(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`expected an integer, got "${value}"`);
  }
  return Number(value);
}

function parseCompatibilityVersion(value: string): string {
  try {
    return FeatureSet.parseVersion(value);
  } catch {
    throw new InvalidArgumentError(
      `unsupported version "${value}" (supported: ${SUPPORTED_VERSIONS.join(', ')})`,
    );
  }
}

/** The options shared by `simulate` and `explain`: what to schedule and how kube-scheduler is set up. */
export function addSimulationOptions(command: Command): Command {
  return command
    .requiredOption(
      '--cluster <file>',
      'cluster dump: JSON or YAML (a List, a stream of documents, or kubectl get -o yaml output)',
    )
    .option('--profile <file>', 'KubeSchedulerConfiguration (YAML or JSON); default: the default profile')
    .option('--seed <n>', 'seed for every random choice (score tie-breaks, preemption offsets)', parseSeed, 0)
    .option(
      '--compatibility-version <version>',
      `kube-scheduler release to reproduce (${SUPPORTED_VERSIONS.join(', ')})`,
      parseCompatibilityVersion,
      DEFAULT_CLI_VERSION,
    )
    .option(
      '--no-pv-controller',
      'schedule the dump as is: skip the PV controller binding/provisioning Immediate claims first',
    )
    .addOption(
      new Option('--tie-break <mode>', 'how to pick among equally scored nodes')
        .choices(['random', 'lowest-node-name'])
        .default('random'),
    )
    .addHelpText('after', EXIT_CODES_HELP);
}

export function simulationFlags(options: Record<string, unknown>): SimulationFlags {
  return {
    cluster: options.cluster as string,
    profile: options.profile as string | undefined,
    seed: options.seed as number,
    compatibilityVersion: options.compatibilityVersion as string,
    tieBreak: options.tieBreak as TieBreak,
    pvController: options.pvController !== false,
  };
}

/** Runs a command body and turns its failure into the documented exit code and message. */
export async function withExitCodes(program: Command, body: () => void | Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    process.exitCode = reportFailure(
      error,
      (text) => program.configureOutput().writeErr?.(text) ?? process.stderr.write(text),
    );
  }
}
