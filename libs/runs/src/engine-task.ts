/**
 * Runs one analysis on a snapshot and shapes the outcome into rows. Pure and synchronous: it runs
 * on a worker thread (engine-thread.ts), never on the worker's event loop. The analysis itself is
 * @schedlab/analysis's pipeline, the one the CLI runs: here only the stored snapshot is unpacked,
 * the run's options become the analysis's request, and the result becomes rows.
 */
import { gunzipSync } from 'node:zlib';
import {
  runAnalysis,
  SCHEDULING_OPTION_NAMES,
  settleClaims,
  type AnalysisOptions,
  type AnalysisType,
  type RequestOf,
} from '@schedlab/analysis';
import { podKeyOf, zoneOf, type KubeObject, type Node, type Pod } from '@schedlab/k8s';
import {
  buildClusterState,
  FastForwardRun,
  placementMessage,
  type PodSchedulingResult,
  type SimulateOptions,
  setupEngine,
} from '@schedlab/scheduler';
import { controllerOf, storageReport, type NodeTemplate, utilization } from '@schedlab/scenarios';
import { storageSummary } from '@schedlab/storage';
import { hasUnexpandedWorkloads, type RejectedObject, rejectedKey } from '@schedlab/workloads';
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

/**
 * The pipeline's options for the run: the scheduling options (the names the API validated them
 * under; `pvController: false` schedules the snapshot as stored, as `--no-pv-controller`), seed
 * and profile.
 */
export function analysisOptions(job: EngineJob): AnalysisOptions {
  const picked: Record<string, unknown> = {};
  for (const key of SCHEDULING_OPTION_NAMES)
    if (job.options[key] !== undefined) picked[key] = job.options[key];
  return {
    ...picked,
    seed: job.seed,
    schedulerConfiguration: job.schedulerConfiguration,
  } as AnalysisOptions;
}

/** One analysis of the snapshot through the pipeline, progress going to the thread's reporter. */
function analyze<T extends AnalysisType>(
  job: EngineJob,
  type: T,
  items: readonly KubeObject[],
  request: RequestOf<T>,
  report: (p: EngineProgress) => void,
  extra: Partial<AnalysisOptions> = {},
) {
  return runAnalysis(type, items, { ...analysisOptions(job), ...extra }, request, { report });
}

export function loadSnapshotItems(content: Uint8Array): KubeObject[] {
  const parsed = JSON.parse(gunzipSync(content).toString('utf8')) as { items?: KubeObject[] };
  if (!Array.isArray(parsed.items)) throw new RunInputError('snapshot', 'stored content has no items list');
  return parsed.items;
}

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

/** Pods that got a node by preempting (nominated after evicting victims; `preempted` counts the victims). */
function preemptingCount(results: Iterable<PodSchedulingResult>): number {
  let count = 0;
  for (const r of results) if (r.nominatedNode) count++;
  return count;
}

function placementRows(
  items: readonly KubeObject[],
  results: readonly PodSchedulingResult[],
): PlacementRow[] {
  const pods = new Map(items.filter((o) => o.kind === 'Pod').map((p) => [podKeyOf(p), p as unknown as Pod]));
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
      message: placementMessage(r),
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
    const key = podKeyOf(pod);
    if (victims.has(key)) continue;
    const node = pod.spec?.nodeName || bound.get(key);
    if (node) out.push({ ...pod, spec: { ...pod.spec!, nodeName: node } } as Pod);
  }
  return out;
}

function runSimulate(job: EngineJob, items: KubeObject[], report: (p: EngineProgress) => void): EngineOutput {
  if (job.scenario !== undefined) {
    const outcome = analyze(job, 'scenario', items, { scenario: job.scenario }, report);
    const { run } = outcome.result;
    const storage = storageReport(run);
    // The workloads' pods were placed when the cluster was started, later moves by the steps.
    const last = new Map<string, PodSchedulingResult>();
    for (const r of outcome.initial ?? []) last.set(r.pod, r);
    for (const [key, r] of run.world.lastResults) last.set(key, r);
    const placements = placementRows(run.world.items, [...last.values()]);
    placements.push(...rejectedRows(outcome.rejected, placements.length));
    // The devices of the cluster after the last step (the steps carry and release DRA claims).
    const devices = run.world.devices();
    return {
      engineVersion: outcome.compatibilityVersion,
      summary: {
        pods: Object.keys(outcome.result.placements).length + outcome.result.pending.length,
        scheduled: Object.keys(outcome.result.placements).length,
        unschedulable: outcome.result.pending.length,
        preempting: preemptingCount(last.values()),
        unschedulableReasons: outcome.result.unschedulable.map((g) => ({
          reason: g.reason,
          count: g.pods.length,
          pods: g.pods.slice(0, REASON_SAMPLE),
        })),
        utilization: outcome.result.utilization,
        ...(outcome.rejected.length ? { rejected: outcome.rejected } : {}),
        ...(devices.length > 0 ? { devices } : {}),
      },
      analysis: {
        // A deschedule step keeps its report: evictions, where they went, figures before and after.
        steps: run.steps.map((s) => ({
          changes: s.changes.length,
          ...(s.descheduling ? { descheduling: s.descheduling } : {}),
        })),
        // The storage timeline and data-loss report, as `simulate --scenario` prints them.
        ...(storage ? { storage } : {}),
      },
      storageSummary: null,
      placements,
      explanations: [],
    };
  }
  const outcome = analyze(job, 'simulate', items, {}, report, {
    // Each stored explanation keeps the cursor its replay fast-forwards to (replayPodExplanation).
    replayCursors: true,
  });
  const scheduled = outcome.result;
  const { results } = scheduled.result;
  const { rejected } = scheduled;
  const nodes = outcome.items.filter((o) => o.kind === 'Node') as unknown as Node[];
  const placements = placementRows(scheduled.items, results);
  placements.push(...rejectedRows(rejected, placements.length));
  const storage = storageSummary({ objects: scheduled.objects, nodes, pods: scheduled.pods, results });
  return {
    engineVersion: outcome.compatibilityVersion,
    summary: {
      ...scheduled.result.summary,
      preempting: preemptingCount(results),
      unschedulableReasons: groupUnschedulable(results),
      utilization: utilization(nodes, podsAfter(scheduled.items, results)),
      orphanPods: scheduled.result.orphanPods,
      unmodelledKinds: scheduled.result.unmodelledKinds,
      ...(rejected.length ? { rejected } : {}),
      // DRA devices per class and node after the run (the API's typed RunResult.devices); the
      // devices of each pod's claims are in its stored explanation (`claims`).
      ...(scheduled.result.devices ? { devices: scheduled.result.devices } : {}),
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

function required<T>(job: EngineJob, field: string): T {
  const value = job.options[field];
  if (value === undefined || value === null) throw new RunInputError(field, `required for a ${job.type} run`);
  return value as T;
}

/** The analysis run types: the run's options as the analysis's request, its result as a summary. */
function runTypedAnalysis(
  job: EngineJob,
  items: KubeObject[],
  report: (p: EngineProgress) => void,
): EngineOutput {
  report({ phase: job.type, podsProcessed: 0, podsTotal: 0 });
  let analysis: Record<string, unknown>;
  let summary: Record<string, unknown>;
  let engineVersion: string;
  switch (job.type) {
    case 'capacity': {
      const request = {
        podTemplate: required<Pod>(job, 'podTemplate'),
        maxReplicas: Number(job.options.maxReplicas ?? 1000),
      };
      const outcome = analyze(job, 'capacity', items, request, report);
      const result = outcome.result;
      analysis = result as unknown as Record<string, unknown>;
      summary = { replicas: result.replicas, stopReason: result.stopReason };
      engineVersion = outcome.compatibilityVersion;
      break;
    }
    case 'nodes-needed': {
      const request = {
        templates: required<NodeTemplate[]>(job, 'templates'),
        maxNodes: job.options.maxNodes as number | undefined,
      };
      const outcome = analyze(job, 'nodes-needed', items, request, report);
      const result = outcome.result;
      analysis = result as unknown as Record<string, unknown>;
      summary = {
        add: result.add,
        hourlyCost: result.hourlyCost,
        scheduled: result.scheduled.length,
        limited: result.limited,
      };
      engineVersion = outcome.compatibilityVersion;
      break;
    }
    case 'resilience': {
      const by = (job.options.by ?? 'node') as 'node' | 'zone';
      if (by !== 'node' && by !== 'zone') throw new RunInputError('by', 'must be "node" or "zone"');
      const outcome = analyze(job, 'resilience', items, { by }, report);
      const result = outcome.result.result;
      analysis = result as unknown as Record<string, unknown>;
      summary = { by, critical: (result as unknown as { critical: unknown[] }).critical };
      engineVersion = outcome.compatibilityVersion;
      break;
    }
    case 'compare': {
      const after = (job.options.after ?? {}) as RequestOf<'compare'>['after'];
      const outcome = analyze(job, 'compare', items, { scenario: job.scenario, after }, report);
      const result = outcome.result;
      analysis = result as unknown as Record<string, unknown>;
      summary = {
        moved: result.moved.length,
        newlyScheduled: result.newlyScheduled.length,
        newlyUnschedulable: result.newlyUnschedulable.length,
        scheduledBefore: Object.keys(result.before.placements).length,
        scheduledAfter: Object.keys(result.after.placements).length,
      };
      engineVersion = outcome.compatibilityVersion;
      break;
    }
    case 'deschedule': {
      const request = {
        policy: required<Record<string, unknown>>(job, 'policy'),
        rounds: job.options.rounds as number | undefined,
        now: job.options.now as string | undefined,
        intervalSeconds: job.options.intervalSeconds as number | undefined,
      };
      const outcome = analyze(job, 'deschedule', items, request, report);
      // The cluster after the last round is the snapshot's size: the report keeps the figures.
      const { items: _after, ...result } = outcome.result;
      analysis = result as unknown as Record<string, unknown>;
      summary = {
        ...result.summary,
        converged: result.converged,
        oscillations: result.oscillation.length,
      };
      engineVersion = outcome.compatibilityVersion;
      break;
    }
    case 'timeline': {
      const outcome = analyze(job, 'timeline', items, { timeline: required(job, 'timeline') }, report);
      const result = outcome.result;
      analysis = result as unknown as Record<string, unknown>;
      summary = { ...result.summary, preemptions: result.preemptions.length, endSeconds: result.endSeconds };
      engineVersion = outcome.compatibilityVersion;
      break;
    }
    default:
      throw new RunInputError('type', `unknown run type ${job.type as string}`);
  }
  return {
    engineVersion,
    summary,
    analysis,
    storageSummary: null,
    placements: [],
    explanations: [],
  };
}

export function executeEngineJob(job: EngineJob, report: (p: EngineProgress) => void): EngineOutput {
  report({ phase: 'loading', podsProcessed: 0, podsTotal: 0 });
  const items = loadSnapshotItems(job.content);
  return job.type === 'simulate' ? runSimulate(job, items, report) : runTypedAnalysis(job, items, report);
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

interface PreparedRun {
  /** Identifies the job: run, seed, options, profile and snapshot bytes. */
  key: string;
  content: Uint8Array;
  items: readonly KubeObject[];
  nodes: string[];
  /** Whether the run expanded workloads into pods (replays then schedule them all again). */
  workloads: boolean;
  /** Its cluster state, setup and queue order, once a replay built them and they can be shared. */
  forward?: FastForwardRun;
}

/**
 * The last run replayed on this thread, parsed and settled: replays of a finished run (it never
 * changes) skip reading the snapshot again, and fast-forwards share its cluster state.
 */
let lastPrepared: PreparedRun | undefined;

function preparedRun(job: EngineJob, options: AnalysisOptions): PreparedRun {
  const key = JSON.stringify([job.runId, job.seed, job.options, job.schedulerConfiguration ?? null]);
  const cached = lastPrepared;
  if (
    cached !== undefined &&
    cached.key === key &&
    Buffer.from(cached.content).equals(
      Buffer.from(job.content.buffer, job.content.byteOffset, job.content.byteLength),
    )
  ) {
    return cached;
  }
  lastPrepared = undefined; // the old run's state is garbage before the new one is built
  const items = settleClaims(loadSnapshotItems(job.content), options);
  const run: PreparedRun = {
    key,
    content: job.content,
    items,
    nodes: items.filter((o) => o.kind === 'Node').map((n) => n.metadata.name ?? ''),
    workloads: hasUnexpandedWorkloads(items),
  };
  // Expanding workloads is given the items afresh each time, as the worker gave them.
  if (!run.workloads) lastPrepared = run;
  return run;
}

/**
 * One pod's full explanation, recomputed: the run's snapshot, options, profile and seed through
 * the same pipeline the worker used (PV controller, workload expansion, engine), with only that
 * pod recorded at level `full`. Decisions do not depend on the explain level, so the record
 * equals the one a run at `full` would have stored for the pod.
 *
 * With `job.fastForward` (the run's recorded attempts and the pod's replay cursor) the pods before
 * it are not scheduled again: their recorded effects are applied to the snapshot and one cycle
 * runs (@schedlab/scheduler FastForwardRun). When the records cannot reproduce the state
 * exactly (claims written at binding, expanded workloads, records that disagree) it falls back to
 * the replay that schedules every earlier pod (at `summary`, the cheapest) and stops at the pod.
 */
export function replayPodExplanation(job: EngineJob, pod: string): PodReplay {
  if (job.type !== 'simulate' || job.scenario !== undefined) {
    throw new ReplayUnavailableError(
      'replay_unavailable',
      'full explanations are replayed for simulate runs without a scenario',
    );
  }
  const options = analysisOptions(job);
  const run = preparedRun(job, options);
  const { items, nodes } = run;
  let fallback: string | undefined;
  if (job.fastForward === undefined) fallback = 'the run recorded no replay cursor for the pod';
  else if (run.workloads) fallback = 'the run expanded workloads into pods';
  else {
    const { pvController: _pvController, ...engine } = options as SimulateOptions & AnalysisOptions;
    // A run whose pods bind claims writes its objects: its prepared state is used once.
    const forwardable =
      run.forward ?? new FastForwardRun(buildClusterState(items), setupEngine(engine), engine);
    if (forwardable.reusable) run.forward = forwardable;
    const forwarded = forwardable.explain(job.fastForward.attempts, pod, job.fastForward.cursor);
    if (forwarded.result) {
      return {
        result: forwarded.result as unknown as Record<string, unknown>,
        nodes,
        method: 'fast-forward',
      };
    }
    fallback = forwarded.unavailable;
  }
  // The same pipeline the run went through, its claims already settled above.
  const { results } = runAnalysis(
    'simulate',
    items,
    { ...options, pvController: false, explain: 'summary', explainPods: new Set([pod]), stopAfterPod: pod },
    {},
  ).result.result;
  const result = results.find((r) => r.pod === pod);
  if (!result)
    throw new ReplayUnavailableError('pod_not_found', `pod ${pod} had no scheduling attempt in this run`);
  return { result: result as unknown as Record<string, unknown>, nodes, method: 'replay', fallback };
}
