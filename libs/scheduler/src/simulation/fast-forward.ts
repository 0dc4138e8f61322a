/**
 * Fast-forward replay: one pod's full explanation without scheduling the pods before it. A run's
 * cluster state before a pod's cycle is the initial snapshot plus what the earlier cycles did to
 * it — bindings (the assumed pods), preemption victims removed, nominations — and the simulator's
 * cursor (its random source and where the rotating node search starts). The run records all of
 * it: per pod its node, nominated node and victims (the placements) and, with `replayCursors`,
 * the cursor before its cycle. Applying those effects directly, in order, then running one cycle
 * for the asked pod gives exactly the record a replay that schedules every earlier pod gives
 * (libs/scheduler/src/__tests__/fast-forward.spec.ts and libs/runs' fast-replay spec prove it).
 *
 * Where the records are not enough the answer is `unavailable` and the caller replays in full:
 * pods before the target that mount claims (volume binding writes PVs and PVCs) or reference
 * ResourceClaims, records that do not follow the queue order, a victim that is not running, or
 * a target whose cycle ends differently from what the run recorded.
 */
import { Pod } from '@schedlab/k8s';
import { PodInfo } from '../framework/types';
import type { ClusterObjects } from '../backend/cache/cluster-objects';
import { extendedResourceClasses } from '../framework/plugins/dynamicresources/extended-resources';
import type { ClusterState } from './cluster';
import type { PodSchedulingResult } from './results';
import { createSimulator, type EngineSetup, type SimulateOptions } from './simulate';
import { podKey, type ReplayCursor } from './simulator';

/** What one earlier attempt did to the cluster, as a run's placements record it. */
export interface RecordedAttempt {
  /** "namespace/name". */
  pod: string;
  /** Where it was bound; null when it was not. */
  node: string | null;
  /** Set when its preemption succeeded: the nominator holds it on this node until it binds. */
  nominatedNode?: string | null;
  /** Running pods ("namespace/name") its preemption removed. */
  victims?: readonly string[] | null;
}

export type FastForwardOutcome =
  { result: PodSchedulingResult; unavailable?: undefined } | { result?: undefined; unavailable: string };

/**
 * Whether binding the pod may write cluster objects (PVs, PVCs, claims) the records do not hold:
 * with `objects`, also the claim for extended resources a DeviceClass maps (DRAExtendedResource).
 */
export function bindingWritesObjects(pod: Pod, objects?: ClusterObjects): boolean {
  const spec = pod.spec as
    | (Pod['spec'] & {
        resourceClaims?: unknown[];
        volumes?: { persistentVolumeClaim?: unknown; ephemeral?: unknown }[];
      })
    | undefined;
  if ((spec?.resourceClaims?.length ?? 0) > 0) return true;
  if (objects && objects.deviceClasses.size > 0) {
    const classes = extendedResourceClasses(objects.deviceClasses);
    for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])])
      for (const name of Object.keys(c.resources?.requests ?? {})) if (classes.has(name)) return true;
  }
  return (spec?.volumes ?? []).some((v) => v.persistentVolumeClaim != null || v.ephemeral != null);
}

function sameList(a: readonly string[] | null | undefined, b: readonly string[] | null | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * A run prepared for fast-forward replays: its cluster state, engine setup and queue order,
 * computed once and shared by every replay of the run (each replay builds its own simulator over
 * them; nothing of the prepared state is written when no pending pod binds claims, see `reusable`).
 */
export class FastForwardRun {
  readonly ordered: Pod[];
  private readonly keys: string[];
  private readonly position = new Map<string, number>();
  /**
   * The bound pod of each position, made once (its requests are parsed once): a pure function of
   * the pod, its node, its nomination and its place in the order, so replays can share it.
   */
  private readonly bound = new Map<number, { node: string; nominated: string | null; info: PodInfo }>();
  /** Whether replays may share the state: binding a pod that mounts claims writes its objects. */
  readonly reusable: boolean;

  constructor(
    private readonly cluster: ClusterState,
    private readonly setup: EngineSetup,
    private readonly options: SimulateOptions,
  ) {
    this.ordered = createSimulator(cluster, setup, { ...options, explain: 'summary' }).queueOrder(
      cluster.pendingPods,
    );
    this.keys = this.ordered.map(podKey);
    this.keys.forEach((key, k) => this.position.set(key, k));
    this.reusable = !cluster.pendingPods.some((p) => bindingWritesObjects(p, cluster.objects));
  }

  /**
   * Schedules `target` ("ns/name") with its attempts recorded at level `full`, after applying the
   * recorded effects of every pod ahead of it in the queue. `recorded` lists the run's attempts in
   * scheduling order (at least up to the target; the target's own entry, when present, is checked
   * against the cycle's outcome); `cursor` is the target's replayCursor.
   */
  explain(recorded: readonly RecordedAttempt[], target: string, cursor: ReplayCursor): FastForwardOutcome {
    const at = this.position.get(target) ?? -1;
    if (at < 0) return { unavailable: `pod ${target} is not pending in the snapshot` };
    if (recorded.length < at)
      return { unavailable: 'the run records fewer attempts than pods before the target' };
    const { cluster, ordered, keys } = this;
    const sim = createSimulator(cluster, this.setup, {
      ...this.options,
      explain: 'summary',
      explainPods: new Set([target]),
      replayCursors: false,
    });
    // Where each pod runs now: the snapshot's running pods, then the ones bound on the way.
    const running = new Map<string, Pod>();
    for (const p of cluster.runningPods) running.set(podKey(p), p);
    for (let k = 0; k < at; k++) {
      const pod = ordered[k];
      const attempt = recorded[k];
      const key = keys[k];
      if (attempt.pod !== key) {
        return { unavailable: `recorded attempt ${k} is ${attempt.pod}, the queue has ${key} there` };
      }
      if (attempt.node === null && !attempt.nominatedNode) continue; // no effect on the cluster
      if (bindingWritesObjects(pod, cluster.objects))
        return { unavailable: `${key} mounts claims or DRA-backed resources: binding it writes objects` };
      let current = pod;
      if (attempt.nominatedNode) {
        for (const victim of attempt.victims ?? []) {
          const v = running.get(victim);
          if (!v || !sim.evict(v)) return { unavailable: `victim ${victim} of ${key} is not running` };
          running.delete(victim);
        }
        if (!sim.snapshot.get(attempt.nominatedNode)) {
          return {
            unavailable: `${key} is nominated to ${attempt.nominatedNode}, not a node of the snapshot`,
          };
        }
        current = sim.nominate(current, attempt.nominatedNode);
      } else if ((attempt.victims?.length ?? 0) > 0) {
        return { unavailable: `${key} has victims but no nominated node` };
      }
      if (attempt.node !== null) {
        if (!sim.snapshot.get(attempt.node)) {
          return { unavailable: `${key} is bound to ${attempt.node}, not a node of the snapshot` };
        }
        const nominated = attempt.nominatedNode ?? null;
        let made = this.bound.get(k);
        if (made === undefined || made.node !== attempt.node || made.nominated !== nominated) {
          made = {
            node: attempt.node,
            nominated,
            info: new PodInfo(sim.assumedPod(current, attempt.node, k)),
          };
          this.bound.set(k, made);
        }
        sim.snapshot.addPod(made.info, attempt.node);
        sim.nominator.delete(made.info.uid);
        running.set(key, made.info.pod);
      }
    }

    sim.restoreCursor(cursor);
    const result = sim.scheduleOne(ordered[at], at);
    // The cycle must end as the run's did; otherwise the records do not describe this run.
    const own = recorded[at];
    if (
      own !== undefined &&
      (own.pod !== target ||
        (own.node ?? null) !== result.node ||
        (own.nominatedNode ?? null) !== (result.nominatedNode ?? null) ||
        !sameList(own.victims, result.victims))
    ) {
      return { unavailable: `the replayed cycle of ${target} does not end as the run recorded it` };
    }
    return { result };
  }
}

/**
 * One fast-forward replay (see FastForwardRun.explain). `options` are the run's engine options
 * (seed, tie-break, preemption, percentageOfNodesToScore, start time base); `cluster` is consumed.
 */
export function fastForwardExplain(
  cluster: ClusterState,
  setup: EngineSetup,
  options: SimulateOptions,
  recorded: readonly RecordedAttempt[],
  target: string,
  cursor: ReplayCursor,
): FastForwardOutcome {
  return new FastForwardRun(cluster, setup, options).explain(recorded, target, cursor);
}
