import type { Command } from 'commander';

/** A module under commands/ adds one subcommand to the program it is given. */
export type CommandRegistration = (program: Command) => void;

export interface CommandEntry {
  name: string;
  /** How `schedlab --help` lists the command, so the list needs none of the modules loaded. */
  term: string;
  description: string;
  /**
   * Loads the command's module, and with it the libraries it needs (the engine, Prisma, …), only
   * when the command runs or shows its own help. program.spec.ts checks `term` and `description`
   * against what the module registers.
   */
  load: () => CommandRegistration;
}

/** Every subcommand, in the order `--help` lists them. */
export const commandEntries: readonly CommandEntry[] = [
  {
    name: 'simulate',
    term: 'simulate [options]',
    description: 'schedule every pending pod of a cluster dump as kube-scheduler would, offline',
    load: () => (require('./simulate') as typeof import('./simulate')).registerSimulateCommand,
  },
  {
    name: 'explain',
    term: 'explain [options]',
    description:
      'explain one pending pod: nodes searched, filter failures by reason, the best-scored nodes, preemption',
    load: () => (require('./explain') as typeof import('./explain')).registerExplainCommand,
  },
  {
    name: 'capacity',
    term: 'capacity [options]',
    description:
      'how many more copies of a pod fit: copies are scheduled one at a time, without preemption, until one fits nowhere',
    load: () => (require('./capacity') as typeof import('./capacity')).registerCapacityCommand,
  },
  {
    name: 'nodes-needed',
    term: 'nodes-needed [options]',
    description: 'the cheapest nodes to add so every pending pod schedules, checked by scheduling',
    load: () => (require('./nodes-needed') as typeof import('./nodes-needed')).registerNodesNeededCommand,
  },
  {
    name: 'resilience',
    term: 'resilience [options]',
    description:
      'lose each node (or zone) in turn: do its pods reschedule, and does any workload fall below its PodDisruptionBudget?',
    load: () => (require('./resilience') as typeof import('./resilience')).registerResilienceCommand,
  },
  {
    name: 'compare',
    term: 'compare [options]',
    description:
      'baseline vs a scenario, or profile A vs profile B: moved pods, newly (un)schedulable pods, utilization, stranded capacity',
    load: () => (require('./compare') as typeof import('./compare')).registerCompareCommand,
  },
  {
    name: 'deschedule',
    term: 'deschedule [options]',
    description:
      'run a DeschedulerPolicy on a cluster dump: which pods it evicts, where the scheduler puts them again, utilization, spread and violations before and after',
    load: () => (require('./deschedule') as typeof import('./deschedule')).registerDescheduleCommand,
  },
  {
    name: 'timeline',
    term: 'timeline [options]',
    description:
      'run a timeline of arrivals and cluster events on a simulated clock through the scheduling queue: waits, attempts, preemption races, pending over time',
    load: () => (require('./timeline') as typeof import('./timeline')).registerTimelineCommand,
  },
  {
    name: 'snapshot',
    term: 'snapshot [options]',
    description:
      'list what the scheduler reads from a live cluster (through a kubeconfig) into a dump for --cluster, or upload it to a Schedlab service',
    load: () => (require('./snapshot') as typeof import('./snapshot')).registerSnapshotCommand,
  },
  {
    name: 'check',
    term: 'check [options]',
    description:
      'a policy gate for CI: judge schedulability, placements, moves vs a baseline and capacity against an expectations file; exit 1 with a diff when one fails',
    load: () => (require('./check') as typeof import('./check')).registerCheckCommand,
  },
  {
    name: 'conformance',
    term: 'conformance <file-or-dir...>',
    description: 'replay golden kube-scheduler cases and compare every decision exactly',
    load: () => (require('./conformance') as typeof import('./conformance')).registerConformanceCommand,
  },
  {
    name: 'status',
    term: 'status [options]',
    description: 'check that a running Schedlab api and its PostgreSQL and Redis are ready',
    load: () => (require('./status') as typeof import('./status')).registerStatusCommand,
  },
  {
    name: 'tenant',
    term: 'tenant',
    description: 'operator commands for tenants (talk to DATABASE_URL directly)',
    load: () => (require('./tenant') as typeof import('./tenant')).registerTenantCommand,
  },
];
