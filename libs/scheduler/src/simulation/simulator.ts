/**
 * A simulated kube-scheduler over a cluster state: profiles by schedulerName, one live snapshot,
 * a nominator, and the scheduling cycle of each pod (attempt → PostFilter/preemption → retry on
 * the nominated node → Reserve/Permit/PreBind/Bind). Pure and deterministic for a given seed.
 */
import { Pod, podPriority } from '@schedlab/k8s';
import type { ClusterObjects } from '../backend/cache/cluster-objects';
import { Snapshot } from '../backend/cache/snapshot';
import { Nominator } from '../backend/queue/nominator';
import type { FeatureSet } from '../features';
import { fitErrorMessage } from '../framework/fit-error';
import type { QueuedPodInfo } from '../framework/interface';
import { Framework } from '../framework/runtime/framework';
import type { FrameworkProfile } from '../framework/runtime/profile';
import type { PluginDescriptor } from '../framework/runtime/registry';
import { isSuccess } from '../framework/status';
import { PodInfo } from '../framework/types';
import {
  AttemptRecord,
  DEFAULT_EXPLAIN_LEVEL,
  emptyAttemptFields,
  ExplainLevel,
  ScheduleAlgorithm,
  TieBreak,
  runPostFilter,
} from '../schedule-one';
import { SeededRandom } from '../util/rng';
import type { ClusterState } from './cluster';
import {
  reservedClaimAllocations,
  reservedExtendedResourceClaimStatus,
} from '../framework/plugins/dynamicresources/dynamic-resources';
import type { AttemptSummary, PodSchedulingResult, VolumeBindingSummary } from './results';

import { DEFAULT_START_TIME_BASE } from './clock';

export { DEFAULT_START_TIME_BASE };

export interface SimulatorOptions {
  profiles: FrameworkProfile[];
  registry: ReadonlyMap<string, PluginDescriptor>;
  features: FeatureSet;
  /** Seed for every random choice (tie-breaks, preemption offsets). Default 0. */
  seed?: number;
  /** `random` (seeded, upstream's behaviour) or `lowest-node-name`. Default `random`. */
  tieBreak?: TieBreak;
  /** Run PostFilter (preemption) for pods that fit nowhere. Default true. */
  preemption?: boolean;
  /** Global percentageOfNodesToScore (0 = adaptive); overrides the configuration's. */
  percentageOfNodesToScore?: number;
  /** Bound pods get startTime = base + k seconds (k: the pod's position in the scheduling order). */
  startTimeBase?: string;
  /** How much each pod's attempts record (see ExplainLevel); default `compact`. */
  explain?: ExplainLevel;
  /**
   * Pods ("ns/name") recorded at level `full` whatever `explain` says: the on-demand detail of a
   * replay (every node's verdict and every plugin's score), exact because the run is deterministic.
   */
  explainPods?: ReadonlySet<string>;
  /**
   * Give every result its `replayCursor` (the random source and node-search position before the
   * pod's cycle), so a replay can fast-forward to it from the recorded effects of the pods before
   * (see fast-forward.ts). Off by default: only runs that are replayed later need it.
   */
  replayCursors?: boolean;
}

/**
 * The simulator state a scheduling cycle reads besides the cluster: the seeded random source
 * (tie-breaks, preemption offsets) and where the rotating node search starts
 * (upstream nextStartNodeIndex). With the cluster state rebuilt from recorded effects, restoring
 * it before a pod's cycle makes that cycle exactly the one the run had.
 */
export interface ReplayCursor {
  rng: number;
  nextStartNodeIndex: number;
}

/** Applies the API writes PreBind plugins stand for (volume binding) and reports them. */
export type PreBindWrites = (
  state: AttemptRecord['state'],
  objects: ClusterObjects,
) => VolumeBindingSummary | undefined;

export class Simulator {
  readonly snapshot: Snapshot;
  readonly objects: ClusterObjects;
  readonly nominator = new Nominator();
  readonly frameworks = new Map<string, Framework>();
  readonly algorithm: ScheduleAlgorithm;
  readonly rng: SeededRandom;
  private readonly preemption: boolean;
  private readonly startBaseMs: number;
  preBindWrites?: PreBindWrites;

  constructor(
    state: Pick<ClusterState, 'nodes' | 'runningPods' | 'objects'>,
    readonly opts: SimulatorOptions,
  ) {
    this.snapshot = new Snapshot(state.nodes, state.runningPods, {
      imageNumNodes: opts.features.behaviour.imageStatesCountAllNodes ? 'cluster-wide' : 'at-node-add',
    });
    this.objects = state.objects;
    this.rng = new SeededRandom(opts.seed ?? 0);
    this.preemption = opts.preemption ?? true;
    this.startBaseMs = Date.parse(opts.startTimeBase ?? DEFAULT_START_TIME_BASE);
    for (const profile of opts.profiles) {
      this.frameworks.set(
        profile.schedulerName,
        new Framework(profile, opts.registry, {
          snapshot: this.snapshot,
          objects: this.objects,
          features: opts.features,
          nominator: this.nominator,
          random: this.rng,
          now: () => this.startBaseMs,
        }),
      );
    }
    this.algorithm = new ScheduleAlgorithm(this.snapshot, {
      tieBreak: opts.tieBreak ?? 'random',
      rng: this.rng,
      percentageOfNodesToScore: opts.percentageOfNodesToScore ?? 0,
      explain: opts.explain ?? DEFAULT_EXPLAIN_LEVEL,
    });
  }

  frameworkFor(pod: Pod): Framework | undefined {
    return this.frameworks.get(pod.spec?.schedulerName ?? 'default-scheduler');
  }

  /** Pending pods in the order the scheduling queue pops them (the profiles' QueueSort). */
  queueOrder(pods: readonly Pod[]): Pod[] {
    const sorter = [...this.frameworks.values()][0]?.queueSortPlugin;
    const queued: QueuedPodInfo[] = pods.map((p, i) => ({
      podInfo: new PodInfo(p),
      timestamp: i,
      attempts: 0,
    }));
    if (!sorter) return [...pods];
    return queued
      .sort((a, b) => (sorter.less(a, b) ? -1 : sorter.less(b, a) ? 1 : a.timestamp - b.timestamp))
      .map((q) => q.podInfo.pod);
  }

  /**
   * One pod's scheduling cycle. `sequence` is its position in the scheduling order, which gives
   * its start time once bound.
   */
  scheduleOne(pod: Pod, sequence: number): PodSchedulingResult {
    const key = `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
    const base: Pick<PodSchedulingResult, 'pod' | 'priority' | 'schedulerName' | 'replayCursor'> = {
      pod: key,
      priority: podPriority(pod),
      schedulerName: pod.spec?.schedulerName ?? 'default-scheduler',
    };
    if (this.opts.replayCursors) base.replayCursor = this.cursor();
    const fwk = this.frameworkFor(pod);
    if (!fwk) {
      return {
        ...base,
        ...emptyAttemptFields(),
        outcome: 'no-profile',
        node: null,
        attempts: 0,
        error: `no profile for schedulerName "${base.schedulerName}"`,
      };
    }
    const gate = fwk.runPreEnqueuePlugins(pod);
    if (!isSuccess(gate)) {
      return {
        ...base,
        ...emptyAttemptFields(),
        outcome: 'gated',
        node: null,
        attempts: 0,
        message: gate!.message(),
      };
    }

    const level = this.opts.explainPods?.has(key) ? 'full' : undefined;
    let current = pod;
    let record = this.algorithm.schedulePod(fwk, current, level);
    let attempts = 1;
    const result: PodSchedulingResult = {
      ...base,
      ...summarize(record),
      outcome: 'unschedulable',
      node: null,
      attempts,
    };

    if (!record.selectedNode && !record.error && this.preemption && fwk.postFilterPlugins.length > 0) {
      const post = runPostFilter(fwk, record, current);
      const nominated = post.result?.nominatedNodeName;
      if (isSuccess(post.status) && nominated) {
        const victims = post.result?.victims ?? [];
        for (const v of victims) this.evict(v);
        result.firstAttempt = summarize(record);
        result.nominatedNode = nominated;
        result.victims = victims.map(podKey).sort();
        result.preemption = {
          nominatedNode: nominated,
          victims: result.victims,
          candidates: (post.result?.candidates ?? []).map((c) => ({
            node: c.nodeName,
            victims: c.victims.map(podKey).sort(),
            numPDBViolations: c.numPDBViolations,
          })),
        };
        current = this.nominate(current, nominated);
        // Preemption freed room: the pod goes straight back for one more attempt.
        record = this.algorithm.schedulePod(fwk, current, level);
        attempts++;
        Object.assign(result, summarize(record), { attempts });
      } else if (post.status && post.status.message()) {
        record.diagnosis.postFilterMsg = post.status.message();
        result.message = fitErrorMessage(this.snapshot.size, record.diagnosis);
      }
    }

    if (record.error) {
      return { ...result, outcome: 'error', error: record.error };
    }
    if (!record.selectedNode) return result;

    const bound = this.bind(fwk, current, record, sequence);
    if (typeof bound === 'string') return { ...result, outcome: 'error', error: bound };
    result.node = record.selectedNode;
    result.outcome = 'scheduled';
    if (bound.volumes) result.volumes = bound.volumes;
    if (bound.claims) result.claims = bound.claims;
    return result;
  }

  /**
   * Assume, Reserve, Permit, PreBind, Bind, PostBind. Returns an error text on failure. Public for
   * runs that attempt pods through their own loop (the timeline's queue-driven driver).
   */
  bind(
    fwk: Framework,
    pod: Pod,
    record: AttemptRecord,
    sequence: number,
  ): { volumes?: VolumeBindingSummary; claims?: Record<string, string[]> } | string {
    const node = record.selectedNode!;
    const state = record.state;
    const pi = new PodInfo(this.assumedPod(pod, node, sequence));
    this.snapshot.addPod(pi, node);
    const fail = (msg: string): string => {
      fwk.runReservePluginsUnreserve(state, pod, node);
      this.snapshot.removePod(pi.uid, node);
      return msg;
    };
    const reserve = fwk.runReservePluginsReserve(state, pod, node);
    if (!isSuccess(reserve))
      return fail(`running Reserve plugin "${reserve!.plugin}": ${reserve!.message()}`);
    const permit = fwk.runPermitPlugins(state, pod, node);
    if (!isSuccess(permit)) return fail(`running Permit plugin "${permit!.plugin}": ${permit!.message()}`);
    const preBind = fwk.runPreBindPlugins(state, pod, node);
    if (!isSuccess(preBind))
      return fail(`running PreBind plugin "${preBind!.plugin}": ${preBind!.message()}`);
    const volumes = this.preBindWrites?.(state, this.objects);
    const claims = reservedClaimAllocations(state);
    // DRAExtendedResource: PreBind recorded the pod's extended-resource claim in its status.
    const extendedResourceClaimStatus = reservedExtendedResourceClaimStatus(state);
    if (extendedResourceClaimStatus)
      this.replaceRunningPod(pi.pod, {
        ...pi.pod,
        status: { ...pi.pod.status, extendedResourceClaimStatus } as Pod['status'],
      });
    const bind = fwk.runBindPlugins(state, pod, node);
    if (!isSuccess(bind)) return fail(`running Bind plugin "${bind!.plugin}": ${bind!.message()}`);
    fwk.runPostBindPlugins(state, pod, node);
    this.nominator.delete(pi.uid);
    return { volumes, claims };
  }

  /** The pod as bound to `node`: running, with the start time its place in the order gives it. */
  assumedPod(pod: Pod, node: string, sequence: number): Pod {
    const startTime = new Date(this.startBaseMs + sequence * 1000).toISOString().replace('.000Z', 'Z');
    return {
      ...pod,
      spec: { ...pod.spec!, nodeName: node },
      status: { ...pod.status, phase: 'Running', startTime, nominatedNodeName: undefined },
    };
  }

  /** After a successful preemption: the pod carries its nominated node and the nominator holds it. */
  nominate(pod: Pod, nominated: string): Pod {
    const current = { ...pod, status: { ...pod.status, nominatedNodeName: nominated } };
    this.nominator.add(new PodInfo(current), nominated);
    return current;
  }

  /** The random source and node-search position the next cycle starts from. */
  cursor(): ReplayCursor {
    return { rng: this.rng.counter, nextStartNodeIndex: this.algorithm.nextStartNodeIndex };
  }

  restoreCursor(cursor: ReplayCursor): void {
    this.rng.counter = cursor.rng;
    this.algorithm.nextStartNodeIndex = cursor.nextStartNodeIndex;
  }

  /** PostFilter (preemption) after a failed attempt, for runs that attempt pods through their own loop. */
  postFilter(
    fwk: Framework,
    record: AttemptRecord,
    pod: Pod,
  ): ReturnType<typeof runPostFilter> & { succeeded: boolean } {
    const outcome = runPostFilter(fwk, record, pod);
    return { ...outcome, succeeded: isSuccess(outcome.status) };
  }

  /** Replaces a running pod's object on its node (e.g. a victim given its deletionTimestamp). */
  replaceRunningPod(old: Pod, next: Pod): void {
    this.evict(old);
    this.snapshot.addPod(new PodInfo(next), next.spec!.nodeName!);
  }

  /** Removes a running pod (a preemption victim, an evicted or deleted pod). */
  evict(pod: Pod): boolean {
    const node = pod.spec?.nodeName;
    if (!node) return false;
    return this.snapshot.removePod(new PodInfo(pod).uid, node);
  }
}

export function podKey(pod: Pod): string {
  return `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
}

function summarize(r: AttemptRecord): AttemptSummary {
  const s: AttemptSummary = {
    feasible: r.feasible,
    scores: r.scores,
    pluginScores: r.pluginScores,
    rawScores: r.rawScores,
    maxScoreNodes: r.maxScoreNodes,
    filterReasons: r.filterReasons,
    filterPlugin: r.filterPlugin,
    filterCode: r.filterCode,
  };
  if (r.message !== undefined) s.message = r.message;
  if (r.preFilterRejection) s.preFilterRejection = r.preFilterRejection;
  if (r.evaluated) s.evaluated = r.evaluated;
  if (r.explanation) s.explanation = r.explanation;
  return s;
}
