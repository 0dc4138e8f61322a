import type { Command } from 'commander';
import type { NodeTemplate } from '@schedlab/scenarios';
import { analyzeDump, writeWarnings } from '../engine/analysis-input';
import { loadNodeTemplates } from '../engine/node-templates';
import type { SimulationFlags } from '../engine/run-simulation';
import { attributeTo } from '../input/errors';
import type { OutputFormat } from '../output/document';
import { outputOption, renderAnalysis } from '../output/analysis';
import { dominantReason } from '../output/pod-status';
import { formatTable } from '../output/table';
import { parsePositiveInteger } from './capacity';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

export const DEFAULT_MAX_NODES = 100;

export interface NodesNeededDocument {
  compatibilityVersion: string;
  /** Nodes to add, per template (templates not needed are absent). */
  add: { template: string; count: number; hourlyPrice: number; hourlyCost: number }[];
  hourlyCost: number;
  /** Pending pods that schedule once the nodes are added. */
  scheduled: string[];
  /** Pods no template can host, with each template's FitError on a one-node cluster of it. */
  unhostable: { pod: string; reasons: { template: string; reason: string }[] }[];
  /** True when --max-nodes stopped the search before every hostable pod scheduled. */
  limited: boolean;
}

/** Prices are dollars (or any currency) per hour; rounding hides float noise such as 0.30000000000000004. */
const money = (n: number): number => Math.round(n * 1e6) / 1e6;

export function nodesNeededOf(
  flags: SimulationFlags,
  templatesFile: string,
  maxNodes: number,
): { document: NodesNeededDocument; warnings: string[] } {
  const templates = loadNodeTemplates(templatesFile);
  const { outcome, warnings } = analyzeDump(flags, 'nodes-needed', { templates, maxNodes }, (step) =>
    attributeTo(templatesFile, step),
  );
  const result = outcome.result;
  const byName = new Map<string, NodeTemplate>(templates.map((t) => [t.name, t]));
  return {
    document: {
      compatibilityVersion: outcome.compatibilityVersion,
      add: Object.entries(result.add).map(([template, count]) => {
        const price = byName.get(template)?.hourlyPrice ?? 0;
        return { template, count, hourlyPrice: price, hourlyCost: money(price * count) };
      }),
      hourlyCost: money(result.hourlyCost),
      scheduled: result.scheduled,
      unhostable: Object.entries(result.unhostable).map(([pod, reasons]) => ({
        pod,
        reasons: Object.entries(reasons).map(([template, reason]) => ({ template, reason })),
      })),
      limited: result.limited,
    },
    warnings,
  };
}

export function formatNodesNeededTable(doc: NodesNeededDocument, { wide = false } = {}): string[] {
  const lines: string[] = [];
  if (doc.add.length) {
    lines.push(
      ...formatTable(
        ['TEMPLATE', 'COUNT', 'PRICE/HOUR', 'COST/HOUR'],
        doc.add.map((a) => [a.template, String(a.count), String(a.hourlyPrice), String(a.hourlyCost)]),
      ),
    );
    lines.push(
      '',
      `${doc.add.reduce((n, a) => n + a.count, 0)} nodes, ${doc.hourlyCost} per hour: ${doc.scheduled.length} pending pods schedule (${doc.scheduled.join(', ')})`,
    );
  } else {
    lines.push(
      doc.scheduled.length
        ? `no nodes needed: ${doc.scheduled.length} pending pods already schedule`
        : 'no nodes needed: no pending pod can be helped by a new node',
    );
  }
  if (doc.limited)
    lines.push(
      'note: --max-nodes stopped the search before every pod that a template can host was scheduled',
    );
  if (doc.unhostable.length) {
    lines.push('', 'Pods no template can host');
    const rows = doc.unhostable.flatMap((u) =>
      u.reasons.map((r, i) => {
        const row = [i === 0 ? u.pod : '', r.template, dominantReason(r.reason)];
        return wide ? [...row, r.reason] : row;
      }),
    );
    const headers = ['POD', 'TEMPLATE', 'REASON ON A NODE OF THE TEMPLATE'];
    lines.push(...formatTable(wide ? [...headers, 'MESSAGE'] : headers, rows, '  '));
  }
  lines.push('', `(kube-scheduler ${doc.compatibilityVersion} behaviour)`);
  return lines;
}

export function registerNodesNeededCommand(program: Command): void {
  const command = program
    .command('nodes-needed')
    .description('the cheapest nodes to add so every pending pod schedules, checked by scheduling')
    .requiredOption(
      '--templates <file>',
      'node templates with hourlyPrice (YAML: templates: [{name, hourlyPrice, allocatable, labels, taints}])',
    )
    .option('--max-nodes <n>', 'add at most this many nodes', parsePositiveInteger, DEFAULT_MAX_NODES)
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = nodesNeededOf(
        simulationFlags(options),
        options.templates as string,
        options.maxNodes as number,
      );
      writeWarnings(out.warnings);
      process.stdout.write(
        renderAnalysis(out.document, options.output as OutputFormat, (table) =>
          formatNodesNeededTable(out.document, table),
        ),
      );
    }),
  );
}
