/**
 * `schedlab simulate --scenario`: the dump's workloads are expanded and scheduled, the scenario's
 * steps run with the scheduler live between them, and the result is the final placement of every
 * pod the scheduler handled plus what each step changed.
 */
import path from 'node:path';
import { podKeyOf } from '@schedlab/k8s';
import type { ReportRun, ReportStorage } from '@schedlab/report';
import type { Node } from '@schedlab/k8s';
import { runAnalysis } from '@schedlab/analysis';
import { storageReport, type Change, type ScenarioRun, type StorageReport } from '@schedlab/scenarios';
import type { PodSchedulingResult, SimulationSummary } from '@schedlab/scheduler';
import { analysisOptionsOf, pipelineHooks, type SimulationFlags } from '../engine/run-simulation';
import { attributeScenarioErrors, loadScenarioFile } from '../engine/scenario-file';
import { rejectedKey } from '../engine/workloads';
import { describeSkipped, loadClusterDump } from '../input/cluster-dump';
import { attributeTo } from '../input/errors';
import { formatDeviceTables, formatPlacementDevices } from '../output/devices';
import type { OutputFormat } from '../output/document';
import { isTableFormat, renderDocument } from '../output/document';
import {
  formatPlacementTable,
  rejectedPlacement,
  toPlacement,
  type Placement,
  type SimulationDocument,
} from '../output/placements';
import { formatStepTable, stepSummaries, type StepSummary } from '../output/scenario-steps';
import { formatDataLoss, formatStorageTimeline } from '../output/storage-timeline';

export interface ScenarioDocument extends SimulationDocument {
  scenario: {
    file: string;
    name?: string;
    steps: StepSummary[];
    /** Present when the cluster has claims or volumes: the storage timeline and data-loss report. */
    storage?: StorageReport;
  };
}

export interface ScenarioOutput {
  document: ScenarioDocument;
  warnings: string[];
  /** The visual report's data: the cluster after the last step, its storage and data loss. */
  report: () => { run: ReportRun; storage?: ReportStorage };
}

// Loaded only with --report: the report library.
const reportFile = () => require('../output/report-file') as typeof import('../output/report-file');

/** The changes a scheduling pass made, worded like the scenario's own step records. */
function changesOf(results: readonly PodSchedulingResult[]): Change[] {
  const changes: Change[] = [];
  for (const r of results) {
    if (r.node) changes.push({ type: 'podScheduled', object: r.pod, detail: r.node });
    else changes.push({ type: 'podUnschedulable', object: r.pod, detail: r.message ?? r.error });
    for (const v of r.victims ?? []) changes.push({ type: 'podPreempted', object: v, detail: `by ${r.pod}` });
  }
  return changes;
}

/** Every pod the scheduler handled, where it is at the end (moved pods show their last node). */
function finalPlacements(run: ScenarioRun, before: readonly PodSchedulingResult[]): Placement[] {
  const last = new Map<string, PodSchedulingResult>();
  for (const r of before) last.set(r.pod, r);
  for (const [key, r] of run.world.lastResults) last.set(key, r);
  const nodesByName = new Map(run.world.nodes().map((n: Node) => [n.metadata?.name ?? '', n]));
  const placements: Placement[] = [];
  for (const [key, result] of last) {
    const pod = run.world.pod(key);
    if (!pod) continue; // deleted or lost during the scenario: the step table says so
    const placement = toPlacement(result, nodesByName);
    const node = pod.spec?.nodeName;
    if (node)
      placements.push({
        ...toPlacement({ ...result, node, outcome: 'scheduled' }, nodesByName),
        victims: placement.victims,
      });
    else placements.push(placement);
  }
  return placements;
}

function summaryOf(placements: readonly Placement[], preempted: number): SimulationSummary {
  const s: SimulationSummary = { pods: 0, scheduled: 0, unschedulable: 0, preempted, gated: 0, errors: 0 };
  for (const p of placements) {
    if (p.outcome === 'rejected') continue;
    s.pods++;
    if (p.outcome === 'scheduled') s.scheduled++;
    else if (p.outcome === 'gated') s.gated++;
    else if (p.outcome === 'error') s.errors++;
    else s.unschedulable++;
  }
  return s;
}

export function simulateScenarioDump(flags: SimulationFlags, scenarioFile: string): ScenarioOutput {
  const dump = loadClusterDump(flags.cluster);
  const scenario = loadScenarioFile(scenarioFile);
  const outcome = runAnalysis(
    'scenario',
    dump.objects,
    analysisOptionsOf(flags),
    { scenario },
    {
      ...pipelineHooks(flags),
      analysis: (step) => attributeScenarioErrors(scenarioFile, () => attributeTo(scenarioFile, step)),
    },
  );
  const { run } = outcome.result;
  const before = outcome.initial ?? [];
  const initialChanges = changesOf([...before, ...run.initial]);
  const steps = stepSummaries(initialChanges, run.steps);
  const preempted = steps.reduce((n, s) => n + s.changes.filter((c) => c.type === 'podPreempted').length, 0);
  const placements = [
    ...finalPlacements(run, before),
    ...outcome.rejected.map((r) => rejectedPlacement(rejectedKey(r), r.message)),
  ];
  const unmodelledKinds: Record<string, number> = {};
  for (const o of dump.state.unmodelled) unmodelledKinds[o.kind] = (unmodelledKinds[o.kind] ?? 0) + 1;
  const storage = storageReport(run);
  // The final world holds every claim the steps' passes allocated and the controller released.
  const devices = run.world.devices();
  return {
    document: {
      compatibilityVersion: outcome.compatibilityVersion,
      summary: summaryOf(placements, preempted),
      placements,
      ...(devices.length > 0 ? { devices } : {}),
      orphanPods: dump.state.orphanPods.map((p) => podKeyOf(p)),
      unmodelledKinds: outcome.initial ? {} : unmodelledKinds,
      scenario: {
        file: scenarioFile,
        ...(scenario.name ? { name: scenario.name } : {}),
        steps,
        ...(storage ? { storage } : {}),
      },
    },
    warnings: describeSkipped(flags.cluster, dump.skipped),
    report: () =>
      reportFile().scenarioReportOf(
        run,
        outcome.compatibilityVersion,
        `${path.basename(flags.cluster)} after ${scenario.name ?? path.basename(scenarioFile)}`,
      ),
  };
}

export function renderScenarioSimulation(document: ScenarioDocument, format: OutputFormat): string {
  if (!isTableFormat(format)) return renderDocument(document, format);
  const title = document.scenario.name
    ? `Scenario "${document.scenario.name}" (${document.scenario.file})`
    : `Scenario ${document.scenario.file}`;
  const lines = [
    title,
    ...formatStepTable(document.scenario.steps),
    '',
    'Final placements',
    ...formatPlacementTable(document, { wide: format === 'wide' }),
    ...(document.devices
      ? [
          ...formatDeviceTables(document.devices, { wide: format === 'wide' }),
          ...(format === 'wide' ? formatPlacementDevices(document.placements) : []),
        ]
      : []),
    ...(document.scenario.storage
      ? [
          '',
          ...formatStorageTimeline(document.scenario.storage),
          '',
          ...formatDataLoss(document.scenario.storage.dataLoss),
        ]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}
