/**
 * Runs one analysis on a snapshot and shapes the outcome into rows. Pure and synchronous: it runs
 * on a worker thread (engine-thread.ts), never on the worker's event loop.
 */
import { gunzipSync } from 'node:zlib';
import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import {
  buildClusterState,
  type ClusterObjects,
  type PodSchedulingResult,
  setupEngine,
  simulate,
} from '@schedlab/scheduler';
import {
  capacity,
  compare,
  controllerOf,
  type EngineOptions,
  nodesNeeded,
  resilience,
  simulateScenario,
  utilization,
  zoneOf,
} from '@schedlab/scenarios';
import { settleImmediateClaims, storageSummary } from '@schedlab/storage';
import {
  type RejectedObject,
  rejectedKey,
  scheduleUnexpandedWorkloads,
  unmodelledOnceExpanded,
} from '@schedlab/workloads';
import type { EngineJob, EngineOutput, EngineProgress, PlacementRow, PodReplay } from './engine-job';
import { storedExplanation } from './stored-explanation';

/** Bad run input found only when the engine looks at it (the API validates what it can earlier). */
export class RunInputError extends Error {
  constructor(field: string, problem: string) {
    super(`options.${field}: ${problem}`);
    this.name = 'RunInputError';
  }
}

/** Pods per report: enough to show where the FitErrors come from without copying every pod. */
const REASON_SAMPLE = 20;

const SCHEDULING_OPTIONS = [
  'compatibilityVersion',
  'featureGates',
  'tieBreak',
  'preemption',
  'percentageOfNodesToScore',
  'explain',
] as const;

function engineOptions(job: EngineJob): EngineOptions {
  const picked: Record<string, unknown> = {};
  for (const key of SCHEDULING_OPTIONS) if (job.options[key] !== undefined) picked[key] = job.options[key];
  return { ...picked, seed: job.seed, schedulerConfiguration: job.schedulerConfiguration } as EngineOptions;
}

export function loadSnapshotItems(content: Uint8Array): KubeObject[] {
  const parsed = JSON.parse(gunzipSync(content).toString('utf8')) as { items?: KubeObject[] };
  if (!Array.isArray(parsed.items)) throw new RunInputError('snapshot', 'stored content has no items list');
  return parsed.items;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace || 'default'}/${o.metadata?.name ?? ''}`;

function groupUnschedulable(results: readonly PodSchedulingResult[]) {
  const groups = new Map<string, string[]>();
  for (const r of results) {
    if (r.outcome === 'scheduled') continue;
    const reason = r.message ?? r.error ?? r.outcome;
    groups.set(reason, [...(groups.get(reason) ?? []), r.pod]);
  }
  return [...groups]
    .map(([reason, pods]) => ({ reason, count: pods.length, pods: pods.slice(0, REASON_SAMPLE) }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}

function placementRows(
  items: readonly KubeObject[],
  results: readonly PodSchedulingResult[],
): PlacementRow[] {
  const pods = new Map(items.filter((o) => o.kind === 'Pod').map((p) => [keyOf(p), p as unknown as Pod]));
  const zones = new Map(
    items
      .filter((o) => o.kind === 'Node')
      .map((n) => [n.metadata.name ?? '', zoneOf(n as unknown as Node) ?? null]),
  );
  return results.map((r, ordinal) => {
    const [namespace, name] = r.pod.includes('/')
      ? (r.pod.split('/', 2) as [string, string])
      : ['default', r.pod];
    const owner = pods.has(r.pod) ? controllerOf(pods.get(r.pod)!) : undefined;
    return {
      ordinal,
      podKey: r.pod,
      namespace,
      name,
      ownerKind: owner?.kind ?? null,
      ownerName: owner?.name ?? null,
      node: r.node,
      zone: r.node ? (zones.get(r.node) ?? null) : null,
      status: r.outcome === 'no-profile' ? 'error' : r.outcome,
      priority: r.priority,
      message: r.message ?? r.error ?? null,
      nominatedNode: r.nominatedNode ?? null,
      victims: r.victims?.length ? r.victims : null,
    };
  });
}

/** Bound pods after the run: running ones minus victims, plus the newly scheduled ones. */
function podsAfter(items: readonly KubeObject[], results: readonly PodSchedulingResult[]): Pod[] {
  const victims = new Set(results.flatMap((r) => r.victims ?? []));
  const bound = new Map(results.filter((r) => r.node).map((r) => [r.pod, r.node!]));
  const out: Pod[] = [];
  for (const o of items) {
    if (o.kind !== 'Pod') continue;
    const pod = o as unknown as Pod;
    const key = keyOf(pod);
    if (victims.has(key)) continue;
    const node = pod.spec?.nodeName || bound.get(key);
    if (node) out.push({ ...pod, spec: { ...pod.spec!, nodeName: node } } as Pod);
  }
  return out;
}

function runSimulate(job: EngineJob, items: KubeObject[], report: (p: EngineProgress) => void): EngineOutput {
  const engine = engineOptions(job);
  if (job.scenario !== undefined) {
    // Scenario steps have no per-pod progress hook; the phase still tells the client where it is.
    report({ phase: 'scenario', podsProcessed: 0, podsTotal: 0 });
    const outcome = simulateScenario(items, job.scenario, engine);
    const results = [...outcome.run.world.lastResults.values()];
    const placements = placementRows(outcome.run.world.items, results);
    return {
      engineVersion: engineVersionOf(engine),
      summary: {
        pods: Object.keys(outcome.placements).length + outcome.pending.length,
        scheduled: Object.keys(outcome.placements).length,
        unschedulable: outcome.pending.length,
        unschedulableReasons: outcome.unschedulable.map((g) => ({
          reason: g.reason,
          count: g.pods.length,
          pods: g.pods.slice(0, REASON_SAMPLE),
        })),
        utilization: outcome.utilization,
      },
      analysis: { steps: outcome.run.steps.map((s) => ({ changes: s.changes.length })) },
      storageSummary: null,
      placements,
      explanations: [],
    };
  }
  const scheduled = scheduleItems(items, engine, report);
  const { results, rejected } = scheduled;
  const nodes = items.filter((o) => o.kind === 'Node') as unknown as Node[];
  const placements = placementRows(scheduled.items, results);
  placements.push(...rejectedRows(rejected, placements.length));
  const storage = storageSummary({ objects: scheduled.objects, nodes, pods: scheduled.pods, results });
  return {
    engineVersion: scheduled.engineVersion,
    summary: {
      ...scheduled.summary,
      unschedulableReasons: groupUnschedulable(results),
      utilization: utilization(nodes, podsAfter(scheduled.items, results)),
      orphanPods: scheduled.orphanPods,
      unmodelledKinds: scheduled.unmodelledKinds,
      ...(rejected.length ? { rejected } : {}),
    },
    analysis: null,
    // Clusters without any claim or class have nothing to summarize.
    storageSummary: storage.length ? storage : null,
    placements,
    explanations: results.map((r) => {
      const [namespace, name] = r.pod.split('/', 2) as [string, string];
      return { namespace, name, explanation: storedExplanation(r) };
    }),
  };
}

interface ScheduledSnapshot {
  engineVersion: string;
  summary: Record<string, unknown>;
  results: PodSchedulingResult[];
  /** The objects placements are read from (owners, zones): the snapshot plus the admitted pods. */
  items: KubeObject[];
  /** PVs, PVCs, classes after the run, with the engine's volume bindings written in. */
  objects: ClusterObjects;
  /** Every pod of the run, for who-uses-which-claim. */
  pods: Pod[];
  rejected: RejectedObject[];
  orphanPods: string[];
  unmodelledKinds: Record<string, number>;
}

/**
 * Schedules the snapshot as `schedlab simulate` does: workloads without pods are expanded and
 * admitted first (@schedlab/workloads), otherwise the pending pods go straight to the engine.
 */
function scheduleItems(
  items: KubeObject[],
  engine: EngineOptions,
  report: (p: EngineProgress) => void,
): ScheduledSnapshot {
  report({ phase: 'workloads', podsProcessed: 0, podsTotal: 0 });
  const workloads = scheduleUnexpandedWorkloads(items, engine);
  if (workloads) {
    const run = workloads.simulation;
    const state = buildClusterState(items);
    const unmodelledKinds: Record<string, number> = {};
    for (const o of state.unmodelled) {
      if (unmodelledOnceExpanded(o.kind)) unmodelledKinds[o.kind] = (unmodelledKinds[o.kind] ?? 0) + 1;
    }
    report({ phase: 'scheduling', podsProcessed: run.results.length, podsTotal: run.results.length });
    return {
      engineVersion: engineVersionOf(engine),
      summary: { ...run.summary },
      results: run.results,
      items: [...items, ...(run.expansion.pods as unknown as KubeObject[])],
      objects: run.simulator.objects,
      pods: workloads.pods,
      rejected: workloads.rejected,
      orphanPods: state.orphanPods.map((p) => keyOf(p)),
      unmodelledKinds,
    };
  }
  const state = buildClusterState(items);
  const result = simulate(state, {
    ...engine,
    onProgress: (podsProcessed, podsTotal) => report({ phase: 'scheduling', podsProcessed, podsTotal }),
  });
  return {
    engineVersion: result.compatibilityVersion,
    summary: { ...result.summary },
    results: result.results,
    items,
    // The engine's simulator writes VolumeBinding's PreBind results into the state's objects.
    objects: state.objects,
    pods: [...state.runningPods, ...state.pendingPods],
    rejected: [],
    orphanPods: result.orphanPods,
    unmodelledKinds: result.unmodelledKinds,
  };
}

/** Pods admission refused never reach the scheduler: rows with status `error` and its message. */
function rejectedRows(rejected: readonly RejectedObject[], firstOrdinal: number): PlacementRow[] {
  return rejected
    .filter((r) => r.object.startsWith('Pod '))
    .map((r, i) => {
      const podKey = rejectedKey(r);
      const [namespace, name] = podKey.split('/', 2) as [string, string];
      return {
        ordinal: firstOrdinal + i,
        podKey,
        namespace,
        name,
        ownerKind: null,
        ownerName: null,
        node: null,
        zone: null,
        status: 'error' as const,
        priority: 0,
        message: `admission rejected: ${r.message}`,
        nominatedNode: null,
        victims: null,
      };
    });
}

/** The kube-scheduler release reproduced; resolving it also validates the profile up front. */
function engineVersionOf(engine: EngineOptions): string {
  return setupEngine(engine).features.version;
}

function required<T>(job: EngineJob, field: string): T {
  const value = job.options[field];
  if (value === undefined || value === null) throw new RunInputError(field, `required for a ${job.type} run`);
  return value as T;
}

function runAnalysis(job: EngineJob, items: KubeObject[], report: (p: EngineProgress) => void): EngineOutput {
  const engine = engineOptions(job);
  report({ phase: job.type, podsProcessed: 0, podsTotal: 0 });
  let analysis: Record<string, unknown>;
  let summary: Record<string, unknown>;
  switch (job.type) {
    case 'capacity': {
      const result = capacity(
        items,
        {
          podTemplate: required<Pod>(job, 'podTemplate'),
          maxReplicas: Number(job.options.maxReplicas ?? 1000),
        },
        engine,
      );
      analysis = result as unknown as Record<string, unknown>;
      summary = { replicas: result.replicas, stopReason: result.stopReason };
      break;
    }
    case 'nodes-needed': {
      const result = nodesNeeded(items, required(job, 'templates'), engine, {
        maxNodes: job.options.maxNodes as number | undefined,
      });
      analysis = result as unknown as Record<string, unknown>;
      summary = {
        add: result.add,
        hourlyCost: result.hourlyCost,
        scheduled: result.scheduled.length,
        limited: result.limited,
      };
      break;
    }
    case 'resilience': {
      const by = (job.options.by ?? 'node') as 'node' | 'zone';
      if (by !== 'node' && by !== 'zone') throw new RunInputError('by', 'must be "node" or "zone"');
      const result = resilience(items, by, engine);
      analysis = result as unknown as Record<string, unknown>;
      summary = { by, critical: (result as unknown as { critical: unknown[] }).critical };
      break;
    }
    case 'compare': {
      const after = (job.options.after ?? {}) as EngineOptions;
      const result = compare(items, { scenario: job.scenario, after }, engine);
      analysis = result as unknown as Record<string, unknown>;
      summary = {
        moved: result.moved.length,
        newlyScheduled: result.newlyScheduled.length,
        newlyUnschedulable: result.newlyUnschedulable.length,
        scheduledBefore: Object.keys(result.before.placements).length,
        scheduledAfter: Object.keys(result.after.placements).length,
      };
      break;
    }
    default:
      throw new RunInputError('type', `unknown run type ${job.type as string}`);
  }
  return {
    engineVersion: engineVersionOf(engine),
    summary,
    analysis,
    storageSummary: null,
    placements: [],
    explanations: [],
  };
}

/**
 * The snapshot as the cluster would hold it when pods reach the scheduler: the PV controller has
 * bound or provisioned unbound Immediate claims (zone by seed, not by pod). `options.pvController:
 * false` schedules the snapshot as stored, to see the scheduler alone (as `--no-pv-controller`).
 */
function settledItems(job: EngineJob, items: KubeObject[]): KubeObject[] {
  if (job.options.pvController === false) return items;
  return settleImmediateClaims(items, { seed: job.seed }).items;
}

export function executeEngineJob(job: EngineJob, report: (p: EngineProgress) => void): EngineOutput {
  report({ phase: 'loading', podsProcessed: 0, podsTotal: 0 });
  const items = settledItems(job, loadSnapshotItems(job.content));
  return job.type === 'simulate' ? runSimulate(job, items, report) : runAnalysis(job, items, report);
}

/** Why a pod's full explanation cannot be replayed (the API answers 404 or 409 with it). */
export class ReplayUnavailableError extends Error {
  constructor(
    readonly code: 'pod_not_found' | 'replay_unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'ReplayUnavailableError';
  }
}

/**
 * One pod's full explanation, recomputed: the run's snapshot, options, profile and seed through
 * the same pipeline the worker used (PV controller, workload expansion, engine), with only that
 * pod recorded at level `full` and the run stopped once it is scheduled. Decisions do not depend
 * on the explain level, so the other pods are replayed at `summary` (the cheapest) and the record
 * equals the one a run at `full` would have stored for the pod.
 */
export function replayPodExplanation(job: EngineJob, pod: string): PodReplay {
  if (job.type !== 'simulate' || job.scenario !== undefined) {
    throw new ReplayUnavailableError(
      'replay_unavailable',
      'full explanations are replayed for simulate runs without a scenario',
    );
  }
  const items = settledItems(job, loadSnapshotItems(job.content));
  const engine: EngineOptions = {
    ...engineOptions(job),
    explain: 'summary',
    explainPods: new Set([pod]),
    stopAfterPod: pod,
  } as EngineOptions;
  const { results } = scheduleItems(items, engine, () => undefined);
  const result = results.find((r) => r.pod === pod);
  if (!result)
    throw new ReplayUnavailableError('pod_not_found', `pod ${pod} had no scheduling attempt in this run`);
  const nodes = items.filter((o) => o.kind === 'Node').map((n) => n.metadata.name ?? '');
  return { result: result as unknown as Record<string, unknown>, nodes };
}
