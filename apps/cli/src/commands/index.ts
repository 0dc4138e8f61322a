import type { Command } from 'commander';
import { registerCapacityCommand } from './capacity';
import { registerNodesNeededCommand } from './nodes-needed';
import { registerResilienceCommand } from './resilience';
import { registerCompareCommand } from './compare';
import { registerConformanceCommand } from './conformance';
import { registerExplainCommand } from './explain';
import { registerSimulateCommand } from './simulate';
import { registerStatusCommand } from './status';
import { registerTenantCommand } from './tenant';

/** A module under commands/ adds one subcommand to the program it is given. */
export type CommandRegistration = (program: Command) => void;

/** Every subcommand, in the order `--help` lists them. */
export const commandRegistrations: readonly CommandRegistration[] = [
  registerSimulateCommand,
  registerExplainCommand,
  registerCapacityCommand,
  registerNodesNeededCommand,
  registerResilienceCommand,
  registerCompareCommand,
  registerConformanceCommand,
  registerStatusCommand,
  registerTenantCommand,
];
