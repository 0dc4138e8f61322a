import path from 'node:path';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { TimelineError, type TimelinePod, type TimelineResult } from '@schedlab/analysis';
import { analyzeDump, writeWarnings } from '../engine/analysis-input';
import type { SimulationFlags } from '../engine/run-simulation';
import { InputFileError } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import type { OutputFormat } from '../output/document';
import { outputOption, renderAnalysis } from '../output/analysis';
import { dominantReason } from '../output/pod-status';
import { formatTable } from '../output/table';
import { addSimulationOptions, simulationFlags, withExitCodes } from './simulation-options';

// Loaded only with --report: the report library.
const reportFile = () => require('../output/report-file') as typeof import('../output/report-file');

/** Reads a timeline file (YAML or JSON); the analysis validates it and names the field at fault. */
export function loadTimelineFile(file: string): unknown {
  try {
    return parseYaml(readInputFile(file));
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new InputFileError(file, `invalid YAML/JSON: ${(error as Error).message.split('\n')[0]}`);
  }
}

export function timelineOf(
  flags: SimulationFlags,
  timelineFile: string,
): { document: TimelineResult; warnings: string[] } {
  const timeline = loadTimelineFile(timelineFile);
  const { outcome, warnings } = analyzeDump(flags, 'timeline', { timeline }, (step) => {
    try {
      return step();
    } catch (error) {
      // "events[3].burst.count: …" is about the timeline file, not the dump.
      if (error instanceof TimelineError) throw new InputFileError(timelineFile, error.message);
      throw error;
    }
  });
  return { document: outcome.result, warnings };
}

const seconds = (s: number | undefined): string => (s === undefined ? '-' : `${s}s`);

function status(p: TimelinePod): string {
  if (p.outcome === 'pending') return `Pending (${p.lastQueue ?? 'Active'})`;
  return p.outcome[0].toUpperCase() + p.outcome.slice(1);
}

/** Pods worth a line: those that waited, were preempted or never got a node. */
const noteworthy = (p: TimelinePod) =>
  p.outcome === 'pending' || p.outcome === 'preempted' || p.outcome === 'error' || (p.waitedSeconds ?? 0) > 0;

/** At most this many pod lines in a table; -o json|yaml has every pod. */
const MAX_TABLE_PODS = 50;

export function formatTimelineTable(doc: TimelineResult, { wide = false } = {}): string[] {
  const lines: string[] = [];
  // A small run lists every pod in arrival order; a large one the pods that waited, longest first.
  const waited =
    doc.pods.length <= MAX_TABLE_PODS
      ? [...doc.pods].sort((a, b) => a.arrivedAt - b.arrivedAt || a.pod.localeCompare(b.pod))
      : doc.pods
          .filter(noteworthy)
          .sort(
            (a, b) =>
              (b.waitedSeconds ?? Infinity) - (a.waitedSeconds ?? Infinity) || a.pod.localeCompare(b.pod),
          );
  if (waited.length === 0)
    lines.push(doc.pods.length === 0 ? 'no pod arrived' : 'every pod was bound on arrival');
  else {
    lines.push(
      ...formatTable(
        ['POD', 'PRIORITY', 'ARRIVED', 'BOUND', 'WAITED', 'ATTEMPTS', 'NODE', 'STATUS', 'REASON'],
        waited
          .slice(0, wide ? waited.length : MAX_TABLE_PODS)
          .map((p) => [
            p.pod,
            String(p.priority),
            seconds(p.arrivedAt),
            seconds(p.boundAt),
            seconds(p.waitedSeconds),
            String(p.attempts),
            p.node ?? (p.nominatedNode ? `(nominated ${p.nominatedNode})` : '-'),
            status(p),
            p.preemptedBy
              ? `preempted by ${p.preemptedBy} at ${p.preemptedAt}s`
              : p.lastFailure
                ? wide
                  ? p.lastFailure
                  : dominantReason(p.lastFailure)
                : '-',
          ]),
      ),
    );
    if (!wide && waited.length > MAX_TABLE_PODS)
      lines.push(`… ${waited.length - MAX_TABLE_PODS} more (-o wide lists every one, -o json has every pod)`);
  }
  if (doc.preemptions.length > 0) {
    lines.push('');
    for (const x of doc.preemptions.slice(0, wide ? undefined : 20))
      lines.push(`${x.at}s: ${x.preemptor} preempted ${x.victims.join(', ') || 'nothing new'} on ${x.node}`);
    if (!wide && doc.preemptions.length > 20) lines.push(`… ${doc.preemptions.length - 20} more preemptions`);
  }
  const s = doc.summary;
  const t = s.timeToSchedule;
  lines.push(
    '',
    `${s.pods} pods over ${doc.endSeconds}s: ${s.scheduled} running, ${s.completed} completed, ${s.preempted} preempted, ${s.pendingAtEnd} pending at the end; ${s.attempts} attempts`,
    `time to schedule (${t.count} bound): p50 ${t.p50}s, p90 ${t.p90}s, p99 ${t.p99}s, max ${t.max}s`,
    `(kube-scheduler ${doc.compatibilityVersion} behaviour)`,
  );
  return lines;
}

export function registerTimelineCommand(program: Command): void {
  const command = program
    .command('timeline')
    .description(
      'run a timeline of arrivals and cluster events on a simulated clock through the scheduling queue: waits, attempts, preemption races, pending over time',
    )
    .requiredOption('--timeline <file>', 'timeline document (docs/timeline.md), YAML or JSON')
    .option(
      '--report <file.html>',
      'also write a self-contained HTML report: pending pods by queue over time and the waiting-time histogram',
    )
    .addOption(outputOption());
  addSimulationOptions(command).action((options: Record<string, unknown>) =>
    withExitCodes(program, () => {
      const out = timelineOf(simulationFlags(options), options.timeline as string);
      writeWarnings(out.warnings);
      if (options.report) {
        const cluster = path.basename(options.cluster as string);
        reportFile().writeTimelineReport(
          options.report as string,
          out.document,
          `Schedlab timeline of ${cluster}: ${path.basename(options.timeline as string)}`,
        );
      }
      process.stdout.write(
        renderAnalysis(out.document, options.output as OutputFormat, (table) =>
          formatTimelineTable(out.document, table),
        ),
      );
    }),
  );
}
