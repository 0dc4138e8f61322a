import { InvalidArgumentError, Option, type Command } from 'commander';
import { FeatureSet, NEWEST_VERSION, SUPPORTED_VERSIONS, type TieBreak } from '@schedlab/scheduler';
import type { SimulationFlags } from '../engine/run-simulation';
import { EXIT_CODES_HELP, UsageError, reportFailure } from '../input/errors';

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

/**
 * The options every command that schedules a dump shares: what to schedule and how kube-scheduler
 * is set up. `exitCodesHelp` for a command whose exit codes differ (`check`).
 */
export function addSimulationOptions(
  command: Command,
  { exitCodesHelp = EXIT_CODES_HELP }: { exitCodesHelp?: string } = {},
): Command {
  return command
    .requiredOption(
      '--cluster <file>',
      'cluster dump: JSON or YAML (a List, a stream of documents, or kubectl get -o yaml output)',
    )
    .option(
      '--config <file>',
      "KubeSchedulerConfiguration (YAML or JSON), as kube-scheduler's --config; default: the default profile",
    )
    .option('--profile <file>', 'alias of --config')
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
    .addHelpText('after', exitCodesHelp);
}

/**
 * The value of a flag that has an alias (`--config` and `--profile`): either spelling, and the
 * same file under both is no conflict.
 */
export function aliasedValue(
  options: Record<string, unknown>,
  [flag, alias]: readonly [string, string],
  [key, aliasKey]: readonly [string, string],
): string | undefined {
  const value = options[key] as string | undefined;
  const aliased = options[aliasKey] as string | undefined;
  if (value !== undefined && aliased !== undefined && value !== aliased)
    throw new UsageError(`${flag} and ${alias} name the same setting: give one of them`);
  return value ?? aliased;
}

export function simulationFlags(options: Record<string, unknown>): SimulationFlags {
  return {
    cluster: options.cluster as string,
    profile: aliasedValue(options, ['--config', '--profile'], ['config', 'profile']),
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
