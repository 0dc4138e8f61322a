import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { PolicyError } from '@schedlab/descheduler';
import type { ClusterFigures, DeschedulingReport, EvictionOutcome, SpreadFigure } from '@schedlab/scenarios';
import { analyzeDump, writeWarnings } from '../engine/analysis-input';
import type { SimulationFlags } from '../engine/run-simulation';
import { InputFileError } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import type { OutputFormat } from '../output/document';
import { outputOption, percent, renderAnalysis } from '../output/analysis';
import { dominantReason } from '../output/pod-status';
import { formatTable } from '../output/table';
import { parsePositiveInteger } from './capacity';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

/** What `schedlab deschedule -o json|yaml` prints: the report without the cluster it ends with. */
export interface DescheduleDocument extends Omit<DeschedulingReport, 'items'> {
  compatibilityVersion: string;
}

export interface DescheduleFlags {
  policy: string;
  rounds?: number;
  now?: string;
  intervalSeconds?: number;
}

/** Reads a DeschedulerPolicy file (YAML or JSON); the descheduler validates it when it runs. */
export function loadPolicyFile(file: string): unknown {
  try {
    return parseYaml(readInputFile(file));
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new InputFileError(file, `invalid YAML/JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}

// Loaded only with --report: the report library.
const reportFile = () => require('../output/report-file') as typeof import('../output/report-file');

export function descheduleOf(
  flags: SimulationFlags,
  options: DescheduleFlags,
): { document: DescheduleDocument; warnings: string[] } {
  const policy = loadPolicyFile(options.policy);
  const request = {
    policy,
    rounds: options.rounds,
    now: options.now,
    intervalSeconds: options.intervalSeconds,
  };
  // A PolicyError names profile, plugin and field; the file it is in is the policy's.
  const { outcome, warnings } = analyzeDump(flags, 'deschedule', request, (step) => {
    try {
      return step();
    } catch (error) {
      if (error instanceof PolicyError) throw new InputFileError(options.policy, error.message);
      throw error;
    }
  });
  const { items: _after, ...report } = outcome.result;
  return { document: { compatibilityVersion: outcome.compatibilityVersion, ...report }, warnings };
}

const arrow = (before: string, after: string): string => (before === after ? before : `${before} → ${after}`);

function whereTo(e: EvictionOutcome, wide: boolean): string {
  if (e.outcome === 'lost') return 'lost (no controller recreates a bare pod)';
  if (e.outcome === 'unschedulable')
    return `pending: ${wide ? e.fitError : dominantReason(e.fitError ?? '')}`;
  const later = e.scheduledInRound ? ` (round ${e.scheduledInRound})` : '';
  return `${e.newNode}${e.sameNode ? ' (same node)' : ''}${later}`;
}

const spreadName = (s: SpreadFigure): string =>
  `${s.namespace} ${s.selector || '<all>'} by ${s.topologyKey} (maxSkew ${s.maxSkew}, ${s.whenUnsatisfiable})`;

function violationCounts(figures: ClusterFigures): Record<string, number> {
  const counts: Record<string, number> = { taint: 0, nodeAffinity: 0, podAffinity: 0, topologySpread: 0 };
  for (const v of figures.violations) counts[v.kind]++;
  return counts;
}

export function formatDescheduleTable(doc: DescheduleDocument, { wide = false } = {}): string[] {
  const lines: string[] = [];
  if (doc.evictions.length === 0) lines.push('no pod evicted');
  else
    lines.push(
      ...formatTable(
        ['ROUND', 'POD', 'STRATEGY', 'REASON', 'FROM', 'TO', ...(wide ? ['REPLACEMENT'] : [])],
        doc.evictions.map((e) => [
          String(e.round),
          e.pod,
          e.strategy,
          e.detail && wide ? `${e.reason}: ${e.detail}` : e.reason,
          e.oldNode,
          whereTo(e, wide),
          ...(wide ? [e.replacement ?? '-'] : []),
        ]),
      ),
    );
  for (const r of doc.rounds) {
    if (r.skipped) lines.push(`round ${r.round}: ${r.skipped}`);
    if (r.limits.length) lines.push(`round ${r.round}: limits reached: ${r.limits.join(', ')}`);
    if (r.refused)
      lines.push(`round ${r.round}: ${r.refused} eviction(s) refused by a limit or a PodDisruptionBudget`);
    for (const p of r.pendingScheduled ?? [])
      lines.push(
        `round ${r.round}: ${p.pod}, pending before, scheduled on ${p.node} in the room the evictions freed`,
      );
    for (const p of r.preempted ?? []) lines.push(`round ${r.round}: ${p.pod} preempted by ${p.by}`);
  }

  const beforeNodes = new Map(doc.before.nodes.map((n) => [n.name, n]));
  lines.push(
    '',
    ...formatTable(
      ['NODE', 'ZONE', 'CPU REQUESTED', 'MEMORY REQUESTED', 'PODS'],
      doc.after.nodes.map((n) => {
        const b = beforeNodes.get(n.name) ?? n;
        return [
          n.name,
          n.zone || '-',
          arrow(percent(b.cpu.ratio), percent(n.cpu.ratio)),
          arrow(percent(b.memory.ratio), percent(n.memory.ratio)),
          arrow(String(b.pods), String(n.pods)),
        ];
      }),
    ),
  );
  const beforeZones = new Map(doc.before.zones.map((z) => [z.zone, z]));
  if (doc.after.zones.some((z) => z.zone !== ''))
    lines.push(
      '',
      ...formatTable(
        ['ZONE', 'NODES', 'CPU REQUESTED', 'MEMORY REQUESTED', 'PODS'],
        doc.after.zones.map((z) => {
          const b = beforeZones.get(z.zone) ?? z;
          return [
            z.zone || '<no zone label>',
            String(z.nodes),
            arrow(percent(b.cpu.ratio), percent(z.cpu.ratio)),
            arrow(percent(b.memory.ratio), percent(z.memory.ratio)),
            arrow(String(b.pods), String(z.pods)),
          ];
        }),
      ),
    );
  if (doc.after.spread.length) {
    const beforeSpread = new Map(doc.before.spread.map((s) => [spreadName(s), s]));
    lines.push(
      '',
      ...formatTable(
        ['SPREAD CONSTRAINT', 'SKEW', 'PODS PER DOMAIN'],
        doc.after.spread.map((s) => {
          const b = beforeSpread.get(spreadName(s)) ?? s;
          const per = (f: SpreadFigure) =>
            Object.entries(f.counts)
              .map(([d, n]) => `${d}=${n}`)
              .join(' ');
          return [spreadName(s), arrow(String(b.skew), String(s.skew)), arrow(per(b), per(s))];
        }),
      ),
    );
  }
  const vb = violationCounts(doc.before);
  const va = violationCounts(doc.after);
  lines.push(
    '',
    `violations: ${Object.keys(va)
      .map((k) => `${k} ${arrow(String(vb[k]), String(va[k]))}`)
      .join(', ')}`,
  );
  if (wide)
    for (const v of doc.after.violations) lines.push(`  ${v.pod} on ${v.node}: ${v.plugin}: ${v.reason}`);
  for (const o of doc.oscillation) {
    lines.push(
      o.kind === 'evictedAgain'
        ? `oscillation: ${o.pod}${o.workload ? ` (${o.workload})` : ''} evicted in rounds ${o.rounds.join(', ')} from ${o.nodes.join(', ')}`
        : `oscillation: ${o.pod} (${o.workload}) back on ${o.nodes[0]}, which a pod of its workload was evicted from in round ${o.rounds[0]}`,
    );
  }
  const s = doc.summary;
  lines.push(
    '',
    `${s.evicted} evicted in ${s.rounds} round(s): ${s.rescheduled} rescheduled, ${s.unschedulable} pending, ${s.lost} lost; ${doc.converged ? 'a further round evicts nothing' : 'the last round still evicted pods (--rounds N runs more)'}`,
    `(kube-scheduler ${doc.compatibilityVersion} behaviour)`,
  );
  return lines;
}

function parseTime(value: string): string {
  if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}T/.test(value))
    throw new InvalidArgumentError(`expected an RFC 3339 time such as 2030-01-01T00:00:00Z, got "${value}"`);
  return value;
}

export function registerDescheduleCommand(program: Command): void {
  const command = program
    .command('deschedule')
    .description(
      'run a DeschedulerPolicy on a cluster dump: which pods it evicts, where the scheduler puts them again, utilization, spread and violations before and after',
    )
    .requiredOption('--policy <file>', 'DeschedulerPolicy (descheduler/v1alpha2), YAML or JSON')
    .option(
      '--rounds <n>',
      'descheduling rounds at most; they stop once one evicts nothing',
      parsePositiveInteger,
      1,
    )
    .option(
      '--now <time>',
      "the descheduler's clock (PodLifeTime, minPodAge); default the dump's newest timestamp",
      parseTime,
    )
    .option('--interval <seconds>', 'seconds between rounds', parsePositiveInteger, 300)
    .option(
      '--report <file.html>',
      'also write a self-contained HTML report: the cluster before and after, the evictions, spread and violations',
    )
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = descheduleOf(simulationFlags(options), {
        policy: options.policy as string,
        rounds: options.rounds as number,
        now: options.now as string | undefined,
        intervalSeconds: options.interval as number,
      });
      writeWarnings(out.warnings);
      if (options.report) {
        const cluster = path.basename(options.cluster as string);
        const input = reportFile().descheduleReportOf(
          out.document,
          out.document.compatibilityVersion,
          `Schedlab descheduling of ${cluster} by ${path.basename(options.policy as string)}`,
          cluster,
        );
        reportFile().writeReportHtml(options.report as string, input);
      }
      process.stdout.write(
        renderAnalysis(out.document, options.output as OutputFormat, (table) =>
          formatDescheduleTable(out.document, table),
        ),
      );
    }),
  );
}
