import type { Command } from 'commander';
import type { CompareRequest, CompareResult, CompareSide, EngineOptions } from '@schedlab/scenarios';
import { setupEngine } from '@schedlab/scheduler';
import { analyzeDump, writeWarnings } from '../engine/analysis-input';
import { engineOptionsOf, type SimulationFlags } from '../engine/run-simulation';
import { attributeScenarioErrors, loadScenarioFile } from '../engine/scenario-file';
import { UsageError, attributeTo } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import type { OutputFormat } from '../output/document';
import { outputOption, percent, renderAnalysis } from '../output/analysis';
import { dominantReason } from '../output/pod-status';
import { formatTable } from '../output/table';
import { addSimulationOptions, aliasedValue, simulationFlags, withExitCodes } from './simulation-options';

export interface CompareFlags {
  scenario?: string;
  profileA?: string;
  profileB?: string;
}

export interface CompareDocument extends CompareResult {
  compatibilityVersion: string;
  /** What the two sides are: `baseline` vs the scenario file, or the two profile files. */
  beforeLabel: string;
  afterLabel: string;
}

/** A profile file as engine options, validated (and attributed to its file) before any run. */
function profileEngine(file: string, base: EngineOptions): EngineOptions {
  const schedulerConfiguration = readInputFile(file);
  attributeTo(file, () => setupEngine({ ...base, schedulerConfiguration }));
  return { schedulerConfiguration };
}

export function compareOf(
  flags: SimulationFlags,
  request: CompareFlags,
): { document: CompareDocument; warnings: string[] } {
  const byProfiles = request.profileA !== undefined || request.profileB !== undefined;
  if (byProfiles === (request.scenario !== undefined))
    throw new UsageError('compare needs either --scenario or both --config-a and --config-b');
  if (byProfiles && (request.profileA === undefined || request.profileB === undefined))
    throw new UsageError('--config-a and --config-b go together');
  if (byProfiles && flags.profile !== undefined)
    throw new UsageError('--config applies to both sides; with --config-a/--config-b leave it out');
  let analysis: CompareRequest;
  let attribute: (<T>(step: () => T) => T) | undefined;
  let labels: [string, string];
  if (request.scenario !== undefined) {
    const file = request.scenario;
    analysis = { scenario: loadScenarioFile(file) };
    attribute = (step) => attributeScenarioErrors(file, () => attributeTo(file, step));
    labels = ['baseline', file];
  } else {
    const base = engineOptionsOf(flags);
    analysis = {
      before: profileEngine(request.profileA!, base),
      after: profileEngine(request.profileB!, base),
    };
    labels = [request.profileA!, request.profileB!];
  }
  const { outcome, warnings } = analyzeDump(flags, 'compare', analysis, attribute);
  const result: CompareResult = outcome.result;
  return {
    document: {
      compatibilityVersion: outcome.compatibilityVersion,
      beforeLabel: labels[0],
      afterLabel: labels[1],
      ...result,
    },
    warnings,
  };
}

function metricRows(side: CompareSide): string[] {
  const u = side.utilization;
  return [
    String(Object.keys(side.placements).length),
    String(side.pending.length),
    percent(u.cluster.cpu.ratio),
    percent(u.cluster.memory.ratio),
    side.utilization.stdDev.cpu.toFixed(3),
    side.utilization.stdDev.memory.toFixed(3),
    side.stranded.nodes.length
      ? `${side.stranded.cpu}m cpu, ${(side.stranded.memory / 2 ** 30).toFixed(1)}Gi memory, ${side.stranded.pods} pods on ${side.stranded.nodes.length} nodes`
      : 'none',
  ];
}

const METRICS = [
  'bound pods',
  'pending pods',
  'cpu requested',
  'memory requested',
  'cpu ratio std dev (per node)',
  'memory ratio std dev (per node)',
  'stranded capacity',
];

export function formatCompareTable(doc: CompareDocument, { wide = false } = {}): string[] {
  const before = metricRows(doc.before);
  const after = metricRows(doc.after);
  const lines = [`Before: ${doc.beforeLabel}`, `After:  ${doc.afterLabel}`, ''];
  lines.push(
    ...formatTable(
      ['METRIC', 'BEFORE', 'AFTER'],
      METRICS.map((m, i) => [m, before[i], after[i]]),
    ),
  );
  lines.push('');
  if (doc.moved.length)
    lines.push(
      `Moved (${doc.moved.length})`,
      ...formatTable(
        ['POD', 'FROM', 'TO'],
        doc.moved.map((m) => [m.pod, m.from, m.to]),
        '  ',
      ),
    );
  else lines.push('Moved: none');
  if (doc.newlyScheduled.length)
    lines.push(
      `Newly scheduled (${doc.newlyScheduled.length})`,
      ...formatTable(
        ['POD', 'NODE'],
        doc.newlyScheduled.map((m) => [m.pod, m.node]),
        '  ',
      ),
    );
  if (doc.newlyUnschedulable.length) {
    lines.push(
      `Newly unschedulable (${doc.newlyUnschedulable.length})`,
      ...formatTable(
        wide ? ['POD', 'REASON', 'MESSAGE'] : ['POD', 'REASON'],
        doc.newlyUnschedulable.map((m) =>
          wide ? [m.pod, dominantReason(m.reason), m.reason] : [m.pod, dominantReason(m.reason)],
        ),
        '  ',
      ),
    );
  }
  lines.push('', `(kube-scheduler ${doc.compatibilityVersion} behaviour)`);
  return lines;
}

export function registerCompareCommand(program: Command): void {
  const command = program
    .command('compare')
    .description(
      'baseline vs a scenario, or profile A vs profile B: moved pods, newly (un)schedulable pods, utilization, stranded capacity',
    )
    .option('--scenario <file>', 'steps applied on the "after" side only')
    .option('--config-a <file>', 'KubeSchedulerConfiguration of the "before" side')
    .option('--config-b <file>', 'KubeSchedulerConfiguration of the "after" side')
    .option('--profile-a <file>', 'alias of --config-a')
    .option('--profile-b <file>', 'alias of --config-b')
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = compareOf(simulationFlags(options), {
        scenario: options.scenario as string | undefined,
        profileA: aliasedValue(options, ['--config-a', '--profile-a'], ['configA', 'profileA']),
        profileB: aliasedValue(options, ['--config-b', '--profile-b'], ['configB', 'profileB']),
      });
      writeWarnings(out.warnings);
      process.stdout.write(
        renderAnalysis(out.document, options.output as OutputFormat, (table) =>
          formatCompareTable(out.document, table),
        ),
      );
    }),
  );
}
