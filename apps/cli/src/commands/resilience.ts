import { Option, type Command } from 'commander';
import type { KubeObject, Pod } from '@schedlab/k8s';
import { podKeyOf } from '@schedlab/k8s';
import type { FailureDomainResult, ResilienceResult } from '@schedlab/scenarios';
import { analyzeDump, writeWarnings } from '../engine/analysis-input';
import type { SimulationFlags } from '../engine/run-simulation';
import type { OutputFormat } from '../output/document';
import { outputOption, renderAnalysis } from '../output/analysis';
import { dominantReason } from '../output/pod-status';
import { formatTable } from '../output/table';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

export type FailureDomainKind = 'node' | 'zone';

export interface DomainDocument extends FailureDomainResult {
  /** Evicted pods that found a node again. */
  rescheduled: number;
  /** Pods the dump already had pending (not evicted) that stay unschedulable; not counted against the domain. */
  pendingBefore: { pod: string; reason: string }[];
}

export interface ResilienceDocument extends Omit<ResilienceResult, 'domains'> {
  compatibilityVersion: string;
  domains: DomainDocument[];
}

/** Splits the library's unschedulable list: pods evicted from the domain vs pods that were pending anyway. */
function domainDocument(domain: FailureDomainResult, items: readonly KubeObject[]): DomainDocument {
  const lost = new Set(domain.nodes);
  const evicted = new Set(
    items
      .filter((o) => o.kind === 'Pod' && lost.has((o as unknown as Pod).spec?.nodeName ?? ''))
      .map((o) => podKeyOf(o as unknown as Pod)),
  );
  const unschedulable = domain.unschedulable.filter((u) => evicted.has(u.pod));
  return {
    ...domain,
    unschedulable,
    rescheduled: domain.evictedPods - unschedulable.length,
    pendingBefore: domain.unschedulable.filter((u) => !evicted.has(u.pod)),
  };
}

export function resilienceOf(
  flags: SimulationFlags,
  by: FailureDomainKind,
): { document: ResilienceDocument; warnings: string[] } {
  // Domains are lost from the cluster once the scheduler has placed what it can of the dump's
  // pending pods (the pipeline's resilience analysis), as `before`.
  const { outcome, warnings } = analyzeDump(flags, 'resilience', { by });
  const { result, before } = outcome.result;
  return {
    document: {
      compatibilityVersion: outcome.compatibilityVersion,
      ...result,
      domains: result.domains.map((d) => domainDocument(d, before)),
    },
    warnings,
  };
}

const domainName = (domain: string) => domain || '<no zone label>';

export function formatResilienceTable(doc: ResilienceDocument, { wide = false } = {}): string[] {
  const rows = doc.domains.map((d) => {
    const below = d.workloads.filter((w) => w.losesAvailability).map((w) => w.workload);
    return [
      domainName(d.domain),
      String(d.nodes.length),
      String(d.evictedPods),
      `${d.rescheduled}/${d.evictedPods}`,
      String(d.preempted.length),
      below.length ? below.join(', ') : '-',
      doc.critical.includes(d.domain) ? 'yes' : 'no',
    ];
  });
  const lines = formatTable(
    [doc.by.toUpperCase(), 'NODES', 'EVICTED', 'RESCHEDULED', 'PREEMPTED', 'LOSES AVAILABILITY', 'CRITICAL'],
    rows,
  );
  for (const d of doc.domains.filter((x) => doc.critical.includes(x.domain))) {
    lines.push('', `Losing ${doc.by} ${domainName(d.domain)}:`);
    for (const u of d.unschedulable) {
      lines.push(`  ${u.pod} cannot be rescheduled: ${wide ? u.reason : dominantReason(u.reason)}`);
      for (const v of d.pinnedByVolumes.filter((p) => p.pod === u.pod))
        lines.push(`    claim ${v.claim} (volume ${v.volume}): ${v.reason}`);
    }
    for (const w of d.workloads.filter((x) => x.losesAvailability)) {
      const budget = w.disruptionBudget
        ? `, PodDisruptionBudget ${w.disruptionBudget} needs ${w.desiredHealthy}`
        : ', no PodDisruptionBudget';
      lines.push(
        `  ${w.workload}: ${w.replicas} replicas, ${w.replicasLeft} left right after the loss, ${w.replicasAfterRescheduling} once rescheduled${budget}`,
      );
    }
  }
  const pendingBefore = new Set(doc.domains.flatMap((d) => d.pendingBefore.map((p) => p.pod)));
  if (pendingBefore.size)
    lines.push('', `not counted: ${[...pendingBefore].join(', ')} (pending in the dump already)`);
  lines.push(
    '',
    doc.critical.length
      ? `${doc.critical.length} of ${doc.domains.length} ${doc.by}s are critical: ${doc.critical.map(domainName).join(', ')}`
      : `no single ${doc.by} is critical`,
  );
  lines.push(`(kube-scheduler ${doc.compatibilityVersion} behaviour)`);
  return lines;
}

export function registerResilienceCommand(program: Command): void {
  const command = program
    .command('resilience')
    .description(
      'lose each node (or zone) in turn: do its pods reschedule, and does any workload fall below its PodDisruptionBudget?',
    )
    .addOption(new Option('--by <domain>', 'failure domain').choices(['node', 'zone']).default('node'))
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = resilienceOf(simulationFlags(options), options.by as FailureDomainKind);
      writeWarnings(out.warnings);
      process.stdout.write(
        renderAnalysis(out.document, options.output as OutputFormat, (table) =>
          formatResilienceTable(out.document, table),
        ),
      );
    }),
  );
}
