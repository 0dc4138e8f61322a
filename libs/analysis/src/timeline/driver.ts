/**
 * The timeline run (issue #18): a discrete-event loop over a simulated clock driving the engine's
 * scheduling queue. At each instant the due events are applied (and turned into the queue's
 * cluster events, so QueueingHints decide which pods move), then pods are popped and attempted one
 * at a time through the same scheduling cycle as `simulate` (same plugins, same FitError). Failed
 * pods go back through the queue with its backoff; preemption victims keep their resources for
 * their terminationGracePeriodSeconds while the preemptor waits nominated, and the nominator
 * reserves its room for lower-or-equal-priority pods, so the races happen when they would.
 *
 * Workloads in the dump are expanded and admitted at the start as `simulate` does
 * (@schedlab/workloads), and controllers act during the run: a controller-owned pod that goes away
 * (a victim at the end of its grace period, a pod on a removed node, a kubelet rejection, a
 * deletePod) is replaced by its controller at that instant (recreateDeletedPods), and the
 * replacement arrives through admission like any pod. Completions are not replaced.
 */
import {
  admitPriority,
  defaultObject,
  podRequests,
  resourceAmount,
  namespaceOf,
  podKeyOf,
  podPriority,
  type PersistentVolumeClaim,
  zoneOf,
  type KubeObject,
  type Node,
  type Pod,
  type PriorityClass,
  seededRandomInt,
  type RandomInt,
} from '@schedlab/k8s';
import {
  admissionPolicy,
  admitPods,
  admitStatefulSetStep,
  expandWorkloads,
  expandedClusterItems,
  generateName,
  hasUnexpandedWorkloads,
  recreateDeletedPods,
  type RejectedObject,
  type StatefulSetController,
} from '@schedlab/workloads';
import type { AdmissionPolicy } from '@schedlab/workloads';
import { OPERATIONS, World, releaseClaimsIn, type OperationContext } from '@schedlab/scenarios';
import {
  ACTIVE_Q,
  ActionType,
  BACKOFF_Q,
  EventAssignedPodAdd,
  EventAssignedPodDelete,
  EventNodeAdd,
  EventNodeDelete,
  PriorityQueue,
  QueueingHint,
  SimulatedClock,
  UNSCHEDULABLE_Q,
  attemptFailureOf,
  buildClusterState,
  createSimulator,
  fitErrorMessage,
  nodeSchedulingPropertiesChange,
  queueFeatures,
  queueProfileOf,
  syncPodClaims,
  podUid as claimPodUid,
  type ClusterObjects,
  type EngineSetup,
  type QueueProfile,
  type QueuedPodInfo,
  type Simulator,
} from '@schedlab/scheduler';
import type { EngineOptions } from '../options';

type ResourceClaimOf = ReturnType<ClusterObjects['resourceClaims']['list']>[number];
import { TimelineError, type TimedAction, type Timeline, type TimelineAction } from './input';
import { summarizeTimeline, type TimelinePod, type TimelineResult, type TimelineSeries } from './result';

/**
 * A kubelet-rejected pod's replacement can land on the same node and be rejected again at the
 * same instant, forever: the controller's retry waits 1 s, doubling per consecutive rejection of
 * its pods up to 15 min (as the DaemonSet controller's failed-pod backoff does), so time moves on.
 */
const REJECTION_BACKOFF_MS = 1000;
const MAX_REJECTION_BACKOFF_MS = 15 * 60 * 1000;

/** Attempts at one instant beyond which the run stops: a guard against a pod that never settles. */
const MAX_ATTEMPTS_PER_INSTANT = 1_000_000;

export interface TimelineRunOptions {
  engine: EngineOptions;
  setup: EngineSetup;
  /** Called now and then with the simulated seconds done and the total (when the duration is known). */
  onProgress?: (secondsDone: number, secondsTotal: number) => void;
}

/** A scheduled happening: the document's actions and the run's own (completions, victims gone). */
interface Due {
  at: number;
  seq: number;
  run: () => void;
}

class DueHeap {
  private readonly items: Due[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  peek(): Due | undefined {
    return this.items[0];
  }

  push(at: number, run: () => void): void {
    const items = this.items;
    items.push({ at, seq: this.seq++, run });
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  pop(): Due | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && before(items[l], items[m])) m = l;
        if (r < items.length && before(items[r], items[m])) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m], items[i]];
        i = m;
      }
    }
    return top;
  }
}

const before = (a: Due, b: Due) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

const withoutNominatedNode = (pod: Pod): Pod => ({
  ...pod,
  status: { ...pod.status, nominatedNodeName: undefined },
});

export function runTimeline(
  items: readonly KubeObject[],
  timeline: Timeline,
  options: TimelineRunOptions,
): TimelineResult {
  return new TimelineDriver(items, timeline, options).run();
}

class TimelineDriver {
  private readonly clock: SimulatedClock;
  private sim: Simulator;
  private readonly queue: PriorityQueue;
  /** The profiles' queue view of the current simulator (rebuilt with it). */
  private profiles = new Map<string, QueueProfile>();
  private readonly nodes = new Map<string, Node>();
  /** Bound pods (terminating victims included, until their grace period ends). */
  private readonly running = new Map<string, Pod>();
  /** Pods in the queue (or in flight), as they are now (nominatedNodeName, gates). */
  private readonly pending = new Map<string, Pod>();
  /** Objects other than nodes and pods (classes, claims, budgets…), for scenario steps. */
  private base: KubeObject[];
  private readonly priorityClasses: PriorityClass[];
  private readonly due = new DueHeap();
  private readonly pods = new Map<string, TimelinePod>();
  private readonly runFor = new Map<string, number>();
  private readonly terminating = new Set<string>();
  private readonly preemptions: TimelineResult['preemptions'] = [];
  private readonly series: TimelineSeries;
  private readonly zones: string[];
  private nextSample: number;
  private readonly explain;
  private readonly preemption: boolean;
  private lastActivity: number;
  private lastReported = 0;
  /** Admission for the pods controllers create during the run (quotas follow the pods). */
  private readonly policy: AdmissionPolicy;
  /**
   * Pods the quotas count (the dump's bound pods, admitted workload pods and replacements): the
   * document's arrivals skip quota admission, so their going frees nothing.
   */
  private readonly charged = new Set<string>();
  /** Objects admission refused: at the start (expansion) and replacements during the run. */
  private readonly rejected: RejectedObject[] = [];
  /** OrderedReady StatefulSets of an expanded dump: each bound ordinal lets the next one in. */
  private readonly statefulSets: StatefulSetController[] = [];
  /** StatefulSet pods the expansion created and their controller has not yet seen scheduled. */
  private readonly awaitedOrdinals = new Set<string>();
  /** Names of controller replacements (generated suffixes). */
  private readonly names: RandomInt;
  /** Consecutive kubelet rejections per controller uid, for its retry backoff. */
  private readonly rejections = new Map<string, number>();
  /** Records of pods whose name a StatefulSet replacement took over, kept for the results. */
  private readonly replacedRecords: TimelinePod[] = [];

  constructor(
    items: readonly KubeObject[],
    private readonly timeline: Timeline,
    private readonly opts: TimelineRunOptions,
  ) {
    const { setup, engine } = opts;
    // An unexpanded workload gets its pods as `simulate` gives them (expansion, then admission).
    let startItems: readonly KubeObject[] = items;
    if (hasUnexpandedWorkloads(items)) {
      const expansion = expandWorkloads(items, engine);
      startItems = expandedClusterItems(expansion);
      this.policy = expansion.policy;
      this.rejected.push(...expansion.rejected);
      this.statefulSets.push(...expansion.statefulSets);
      for (const p of expansion.pods) this.charged.add(podKeyOf(p));
      for (const c of expansion.statefulSets)
        for (const p of expansion.pods)
          if (namespaceOf(p) === namespaceOf(c.set) && c.ordinalOf(p.metadata?.name ?? '') !== undefined)
            this.awaitedOrdinals.add(podKeyOf(p));
    } else {
      this.policy = admissionPolicy(items);
    }
    // Another stream than the expansion's, so replacements do not draw the names it drew.
    this.names = seededRandomInt((engine.seed ?? 0) + 1);
    items = startItems;
    const cluster = buildClusterState(items as KubeObject[], { features: setup.features });
    this.base = items.filter((i) => i.kind !== 'Node' && i.kind !== 'Pod').map((i) => structuredClone(i));
    this.priorityClasses = cluster.objects.priorityClasses.list() as PriorityClass[];
    for (const n of cluster.nodes) this.nodes.set(n.metadata?.name ?? '', n);
    for (const p of cluster.runningPods) {
      this.running.set(podKeyOf(p), p);
      this.charged.add(podKeyOf(p));
    }
    this.clock = new SimulatedClock(timeline.startMs);
    this.sim = createSimulator(cluster, setup, {
      ...engine,
      startTimeBase: new Date(timeline.startMs).toISOString(),
    });
    this.explain = 'summary' as const;
    this.preemption = engine.preemption ?? true;
    this.refreshProfiles();
    const qf = queueFeatures(setup.features);
    const sorter = [...this.sim.frameworks.values()][0]?.queueSortPlugin;
    this.queue = new PriorityQueue({
      clock: this.clock,
      less: sorter ? (a, b) => sorter.less(a, b) : undefined,
      profiles: [...this.profiles.keys()].map((name) => this.delegatingProfile(name)),
      podInitialBackoffSeconds: setup.configuration.podInitialBackoffSeconds,
      podMaxBackoffSeconds: setup.configuration.podMaxBackoffSeconds,
      podMaxInUnschedulablePodsSeconds: timeline.podMaxInUnschedulablePodsSeconds,
      ...qf,
    });
    this.zones = [...new Set([...this.nodes.values()].map((n) => zoneOf(n) ?? ''))].sort();
    this.series = {
      t: [],
      active: [],
      backoff: [],
      unschedulable: [],
      gated: [],
      running: [],
      utilization: { zones: this.zones, cpu: this.zones.map(() => []), memory: this.zones.map(() => []) },
    };
    this.nextSample = 0;
    this.lastActivity = 0;
    // The dump's own pending pods arrive at the start.
    for (const p of cluster.pendingPods) this.due.push(0, () => this.arrive(p));
    for (const a of timeline.actions) this.due.push(a.at, () => this.apply(a));
  }

  /** Milliseconds since the start. */
  private get now(): number {
    return this.clock.now() - this.timeline.startMs;
  }

  run(): TimelineResult {
    const end = this.timeline.durationMs;
    let attemptsHere = 0;
    let lastInstant = -1;
    for (;;) {
      for (let due = this.due.peek(); due && due.at <= this.now; due = this.due.peek()) {
        this.due.pop();
        due.run();
      }
      const info = this.queue.pop();
      if (info) {
        if (this.now !== lastInstant) {
          lastInstant = this.now;
          attemptsHere = 0;
        }
        if (++attemptsHere > MAX_ATTEMPTS_PER_INSTANT)
          throw new TimelineError(`more than ${MAX_ATTEMPTS_PER_INSTANT} attempts at ${this.now / 1000}s`);
        this.attempt(info);
        this.lastActivity = this.now;
        continue;
      }
      // Without a duration the run ends once no event is left and every pending pod sits in the
      // pool: the periodic flush would retry them against an unchanged cluster forever.
      if (end === undefined && this.due.size === 0 && this.queue.backoffQ.length === 0) {
        this.sampleUpTo(this.now);
        break;
      }
      const wake = this.queue.nextWakeUp();
      const nextDue = this.due.peek()?.at;
      const candidates = [wake === undefined ? undefined : wake - this.timeline.startMs, nextDue].filter(
        (x): x is number => x !== undefined,
      );
      let next = candidates.length > 0 ? Math.min(...candidates) : undefined;
      if (next === undefined && this.pending.size === 0 && end === undefined) break;
      if (next === undefined || (end !== undefined && next > end)) {
        // Nothing more can happen: the series runs on to the end (or stops at the last activity).
        this.sampleUpTo(end ?? this.now);
        break;
      }
      if (next < this.now) next = this.now;
      this.sampleUpTo(next);
      this.queue.advanceTo(this.timeline.startMs + next, (t) => this.clock.set(t));
      // Reported by the percent, not every instant: a day at one-second backoff ticks is many.
      if (end !== undefined && this.opts.onProgress && next - this.lastReported >= end / 100) {
        this.lastReported = next;
        this.opts.onProgress(next / 1000, end / 1000);
      }
    }
    if (this.series.t.length === 0 || this.series.t[this.series.t.length - 1] < this.now / 1000)
      this.sample(this.now);
    return summarizeTimeline({
      start: new Date(this.timeline.startMs).toISOString(),
      endSeconds: (end ?? Math.max(this.now, this.lastActivity)) / 1000,
      compatibilityVersion: this.opts.setup.features.release,
      pods: [...this.replacedRecords, ...this.pods.values()],
      rejected: this.rejected,
      preemptions: this.preemptions,
      series: this.series,
      pendingAtEnd: (key) => this.describePending(key),
    });
  }

  // ---- the queue's view of the profiles -------------------------------------------------

  private refreshProfiles(): void {
    const hints = queueFeatures(this.opts.setup.features).queueingHints;
    this.profiles = new Map(
      [...this.sim.frameworks.values()].map((f) => [f.profileName, queueProfileOf(f, hints)]),
    );
  }

  /**
   * A profile whose PreEnqueue plugins and hints call the current simulator's (rebuilt when
   * nodes come and go), so the queue keeps its pods and their backoff across rebuilds.
   */
  private delegatingProfile(name: string): QueueProfile {
    const current = (): QueueProfile => {
      const profile = this.profiles.get(name);
      if (!profile) throw new Error(`internal: profile ${name} is gone after a rebuild`);
      return profile;
    };
    const first = current();
    return {
      schedulerName: name,
      preEnqueuePlugins: first.preEnqueuePlugins.map((p, i) => ({
        name: p.name,
        preEnqueue: (pod: Pod) => current().preEnqueuePlugins[i].preEnqueue(pod),
      })),
      queueingHintMap: first.queueingHintMap.map((entry, i) => ({
        event: entry.event,
        fns: entry.fns.map((fn, j) => ({
          pluginName: fn.pluginName,
          queueingHintFn:
            fn.queueingHintFn &&
            ((pod: Pod, o: unknown, n: unknown) =>
              current().queueingHintMap[i].fns[j].queueingHintFn?.(pod, o, n) ?? QueueingHint.Queue),
        })),
      })),
    };
  }

  /** A new engine over the current nodes and bound pods, continuing the random stream and nominations. */
  private rebuild(objects = this.sim.objects): void {
    const cursor = this.sim.cursor();
    const nominations = [...this.pending.values()].filter((p) => p.status?.nominatedNodeName);
    this.sim = createSimulator(
      {
        nodes: [...this.nodes.values()],
        runningPods: [...this.running.values()].filter((p) => this.nodes.has(p.spec?.nodeName ?? '')),
        objects,
      },
      this.opts.setup,
      { ...this.opts.engine, startTimeBase: new Date(this.timeline.startMs).toISOString() },
    );
    this.sim.restoreCursor(cursor);
    for (const p of nominations) {
      const nominated = p.status?.nominatedNodeName ?? '';
      if (this.nodes.has(nominated)) this.sim.nominate(p, nominated);
    }
    this.refreshProfiles();
    for (const n of this.nodes.values()) {
      const z = zoneOf(n) ?? '';
      if (!this.zones.includes(z)) {
        this.zones.push(z);
        // A zone that appears mid-run had no capacity before.
        this.series.utilization.cpu.push(this.series.t.map(() => 0));
        this.series.utilization.memory.push(this.series.t.map(() => 0));
      }
    }
  }

  // ---- events ---------------------------------------------------------------------------

  private apply({ action }: TimedAction): void {
    this.lastActivity = this.now;
    const a: TimelineAction = action;
    switch (a.kind) {
      case 'arrive':
        return this.arrive(a.pod, a.runForMs);
      case 'addNode':
        return this.addNode(defaultObject({ ...a.node, kind: 'Node' }) as Node);
      case 'removeNode':
        return this.removeNode(a.node);
      case 'cordon':
      case 'uncordon':
        return this.updateNode(a.node, (n) => ({
          ...n,
          spec: { ...n.spec, unschedulable: a.kind === 'cordon' ? true : undefined },
        }));
      case 'taint':
        return this.updateNode(a.node, (n) => ({
          ...n,
          spec: {
            ...n.spec,
            taints: [
              ...(n.spec?.taints ?? []).filter(
                (t) => !a.taints.some((x) => x.key === t.key && x.effect === t.effect),
              ),
              ...a.taints,
            ],
          },
        }));
      case 'untaint':
        return this.updateNode(a.node, (n) => ({
          ...n,
          spec: { ...n.spec, taints: (n.spec?.taints ?? []).filter((t) => !a.keys.includes(t.key)) },
        }));
      case 'ungate':
        return this.ungate(a.pod, a.gates);
      case 'deletePod':
        return this.deletePod(a.pod);
      case 'step':
        return this.step(a.step);
    }
  }

  private arrive(raw: Pod, runForMs?: number, replaces?: string): void {
    // The resourceclaim controller generates the pod's claims from their templates as it is created.
    const pod = syncPodClaims(
      admitPriority(defaultObject({ ...raw, kind: 'Pod' }) as Pod, this.priorityClasses),
      this.sim.objects,
    );
    const key = podKeyOf(pod);
    if (this.pending.has(key) || this.running.has(key))
      throw new TimelineError(`pod ${key} arrives at ${this.now / 1000}s but already exists`);
    const earlier = this.pods.get(key);
    if (earlier) {
      // A StatefulSet replacement takes its predecessor's name: the predecessor's record stays.
      this.pods.delete(key);
      this.replacedRecords.push(earlier);
    }
    this.pending.set(key, pod);
    if (runForMs !== undefined) this.runFor.set(key, runForMs);
    const info = this.queue.add(pod);
    this.pods.set(key, {
      pod: key,
      priority: podPriority(pod),
      arrivedAt: this.now / 1000,
      attempts: 0,
      outcome: 'pending',
      ...(replaces ? { replaces } : {}),
      ...(info.gated ? { lastQueue: 'Gated', lastFailure: info.gatingStatus } : {}),
    });
  }

  /**
   * Controllers replace the pods they own that went away (bare pods are lost); each replacement
   * goes through admission and arrives, after `delayMs` (a controller's retry backoff) if given.
   */
  private replaceOwned(gone: readonly Pod[], delayMs = 0): void {
    if (gone.length === 0) return;
    for (const p of gone) this.releaseQuota(p);
    const { recreated } = recreateDeletedPods(gone, this.names, new Set(this.nodes.keys()));
    for (const { deleted, replacement } of recreated) {
      const oldKey = podKeyOf(deleted);
      const runFor = this.runFor.get(oldKey);
      const create = () => {
        const fresh = this.withFreeName(replacement);
        const before = this.rejected.length;
        const [admitted] = admitPods([fresh], this.policy, this.rejected);
        const rec = this.replacedRecordOf(oldKey);
        if (!admitted) {
          if (rec) rec.replacementRejected = this.rejected[before]?.message;
          return;
        }
        if (rec) rec.replacedBy = podKeyOf(admitted);
        this.charged.add(podKeyOf(admitted));
        this.arrive(admitted, runFor, oldKey);
      };
      if (delayMs > 0) this.due.push(this.now + delayMs, create);
      else create();
    }
  }

  private releaseQuota(pod: Pod): void {
    if (this.charged.delete(podKeyOf(pod))) this.policy.quotas.release({ ...pod, kind: 'Pod' });
  }

  /** A generated name still in use (the expansion drew from another stream) is drawn again. */
  private withFreeName(pod: Pod): Pod {
    const prefix = pod.metadata?.generateName;
    if (!prefix) return pod;
    let name = pod.metadata?.name ?? '';
    const ns = namespaceOf(pod);
    while (
      this.pending.has(`${ns}/${name}`) ||
      this.running.has(`${ns}/${name}`) ||
      this.pods.has(`${ns}/${name}`)
    )
      name = generateName(prefix, this.names);
    return { ...pod, metadata: { ...pod.metadata, name } };
  }

  /** The record of a pod that just went away (its name may since have been taken by its replacement). */
  private replacedRecordOf(key: string): TimelinePod | undefined {
    const current = this.pods.get(key);
    if (current && current.outcome !== 'pending') return current;
    for (let i = this.replacedRecords.length - 1; i >= 0; i--)
      if (this.replacedRecords[i].pod === key) return this.replacedRecords[i];
    return undefined;
  }

  private addNode(node: Node): void {
    const name = node.metadata?.name ?? '';
    if (this.nodes.has(name)) throw new TimelineError(`addNode: node ${name} already exists`);
    this.nodes.set(name, node);
    this.rebuild();
    this.queue.moveAllToActiveOrBackoffQueue(EventNodeAdd, undefined, node);
  }

  private removeNode(name: string): void {
    const node = this.nodes.get(name);
    if (!node) throw new TimelineError(`removeNode: no node ${name}`);
    this.nodes.delete(name);
    const lost: Pod[] = [];
    for (const [key, pod] of this.running) {
      if (pod.spec?.nodeName !== name) continue;
      lost.push(pod);
      this.running.delete(key);
      this.terminating.delete(key);
      const rec = this.recordOf(key, pod);
      if (rec.outcome === 'scheduled') Object.assign(rec, { outcome: 'lost', endedAt: this.now / 1000 });
    }
    for (const pod of this.pending.values())
      if (pod.status?.nominatedNodeName === name) this.setPending(withoutNominatedNode(pod));
    this.rebuild();
    this.queue.moveAllToActiveOrBackoffQueue(EventNodeDelete, node, undefined);
    this.replaceOwned(lost);
  }

  private updateNode(name: string, change: (n: Node) => Node): void {
    const old = this.nodes.get(name);
    if (!old) throw new TimelineError(`no node ${name}`);
    const next = change(old);
    this.nodes.set(name, next);
    // Taints and cordons leave allocatable and labels as they were: the node's record is updated in place.
    const ni = this.sim.snapshot.get(name);
    if (ni) ni.node = next;
    for (const event of nodeSchedulingPropertiesChange(next, old))
      this.queue.moveAllToActiveOrBackoffQueue(event, old, next);
  }

  private ungate(key: string, gates?: string[]): void {
    const old = this.pending.get(key);
    if (!old) throw new TimelineError(`ungate: no pending pod ${key}`);
    const kept = gates ? (old.spec?.schedulingGates ?? []).filter((g) => !gates.includes(g.name)) : [];
    const next: Pod = { ...old, spec: { ...old.spec!, schedulingGates: kept.length > 0 ? kept : undefined } };
    this.pending.set(key, next);
    this.queue.update(old, next);
    const rec = this.pods.get(key);
    if (rec && rec.lastQueue === 'Gated' && kept.length === 0) {
      rec.lastQueue = ACTIVE_Q;
      delete rec.lastFailure;
    }
  }

  private deletePod(key: string): void {
    const pending = this.pending.get(key);
    if (pending) {
      this.pending.delete(key);
      this.sim.nominator.delete(podUid(pending));
      this.queue.delete(pending);
      const rec = this.pods.get(key);
      if (rec) Object.assign(rec, { outcome: 'deleted', endedAt: this.now / 1000 });
      this.releaseClaimsOf(pending);
      this.replaceOwned([pending]);
      return;
    }
    if (!this.running.has(key)) throw new TimelineError(`deletePod: no pod ${key}`);
    this.podGone(key, 'deleted');
  }

  /** A bound pod leaves its node (completed, deleted, or a victim at the end of its grace period). */
  private podGone(key: string, outcome: TimelinePod['outcome']): void {
    const pod = this.running.get(key);
    if (!pod) return;
    this.running.delete(key);
    this.terminating.delete(key);
    this.sim.evict(pod);
    const rec = this.recordOf(key, pod);
    if (rec.outcome === 'scheduled' || rec.outcome === 'preempted')
      Object.assign(rec, {
        outcome: rec.outcome === 'preempted' ? 'preempted' : outcome,
        endedAt: this.now / 1000,
      });
    this.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete, pod, undefined);
    this.releaseClaimsOf(pod);
    // A Job is done with a completed pod; anything else gone is its controller's to replace.
    if (outcome === 'completed') return this.releaseQuota(pod);
    if (outcome !== 'rejected') return this.replaceOwned([pod]);
    const owner = controllerUid(pod);
    const n = owner === undefined ? 0 : (this.rejections.get(owner) ?? 0) + 1;
    if (owner !== undefined) this.rejections.set(owner, n);
    this.replaceOwned([pod], Math.min(REJECTION_BACKOFF_MS * 2 ** (n - 1), MAX_REJECTION_BACKOFF_MS));
  }

  /**
   * The resourceclaim controller and garbage collector once a pod with claims has gone: its
   * reservations go, claims nobody reserves are deallocated, its generated claims deleted. A pod
   * without spec.resourceClaims may hold the claim the scheduler wrote for its DRA-backed extended
   * resources (reserved for it).
   */
  private releaseClaimsOf(gone: Pod): void {
    const before = this.sim.objects.resourceClaims.list();
    if (!(gone.spec as { resourceClaims?: unknown[] } | undefined)?.resourceClaims?.length) {
      const uid = claimPodUid(gone);
      const reserved = (c: ResourceClaimOf) =>
        ((c.status as { reservedFor?: { uid?: string }[] } | undefined)?.reservedFor ?? []).some(
          (r) => r.uid === uid,
        );
      if (!before.some(reserved)) return;
    }
    const pods = [...this.running.values(), ...this.pending.values()] as unknown as KubeObject[];
    releaseClaimsIn(this.sim.objects, pods);
    this.claimEventsSince(before, this.sim.objects.resourceClaims.list());
  }

  /** Claims deallocated or deleted since `before` wake the pods waiting for devices. */
  private claimEventsSince(before: readonly ResourceClaimOf[], after: readonly ResourceClaimOf[]): void {
    const claimsAfter = new Map(after.map((c) => [`${c.metadata?.namespace}/${c.metadata?.name}`, c]));
    for (const old of before) {
      const next = claimsAfter.get(`${old.metadata?.namespace}/${old.metadata?.name}`);
      if (next && JSON.stringify(next.status) === JSON.stringify(old.status)) continue;
      const actionType = next ? ActionType.Update : ActionType.Delete;
      this.queue.moveAllToActiveOrBackoffQueue(
        { resource: 'resource.k8s.io/ResourceClaim', actionType },
        old,
        next,
      );
    }
  }

  /** Any scenario step: applied to the cluster as it is now, then the differences become events. */
  private step(step: unknown): void {
    // The claims as the run left them (allocations and reservations made since the start).
    const claims = this.sim.objects.resourceClaims.list();
    const world = new World(
      [
        ...this.base.filter((i) => i.kind !== 'ResourceClaim'),
        ...(claims as unknown as KubeObject[]),
        ...(this.nodes.values() as Iterable<KubeObject>),
        ...(this.running.values() as Iterable<KubeObject>),
        ...(this.pending.values() as Iterable<KubeObject>),
      ],
      this.opts.engine,
      false,
    );
    const operation = Object.keys(step as object)[0];
    // The timeline's own loop schedules: the step only changes the cluster.
    const ctx: OperationContext = {
      world,
      templates: this.timeline.nodeTemplates,
      changes: [],
      settle: () => undefined,
    };
    (OPERATIONS as Record<string, (args: unknown, c: OperationContext) => void>)[operation](
      (step as Record<string, unknown>)[operation],
      ctx,
    );
    // What the step's removed pods held is released as between scenario steps.
    world.reconcileDeviceClaims();
    const after = buildClusterState(world.items, { features: this.opts.setup.features });
    this.base = world.items.filter((i) => i.kind !== 'Node' && i.kind !== 'Pod');
    const oldNodes = new Map(this.nodes);
    this.nodes.clear();
    for (const n of after.nodes) this.nodes.set(n.metadata?.name ?? '', n);
    const nowRunning = new Map(after.runningPods.map((p) => [podKeyOf(p), p]));
    const nowPending = new Map(after.pendingPods.map((p) => [podKeyOf(p), p]));
    const gone = [...this.running.entries()].filter(([k]) => !nowRunning.has(k));
    for (const [k] of gone) {
      this.running.delete(k);
      this.terminating.delete(k);
      const rec = this.pods.get(k);
      if (rec && rec.outcome === 'scheduled')
        Object.assign(rec, { outcome: 'deleted', endedAt: this.now / 1000 });
    }
    for (const [k, pod] of [...this.pending]) {
      if (nowPending.has(k)) continue;
      this.pending.delete(k);
      this.queue.delete(pod);
    }
    this.rebuild(after.objects);
    for (const [name, old] of oldNodes) {
      const next = this.nodes.get(name);
      if (!next) this.queue.moveAllToActiveOrBackoffQueue(EventNodeDelete, old, undefined);
      else if (next !== old)
        for (const e of nodeSchedulingPropertiesChange(next, old))
          this.queue.moveAllToActiveOrBackoffQueue(e, old, next);
    }
    for (const [name, node] of this.nodes)
      if (!oldNodes.has(name)) this.queue.moveAllToActiveOrBackoffQueue(EventNodeAdd, undefined, node);
    for (const [, pod] of gone)
      this.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodDelete, pod, undefined);
    this.claimEventsSince(claims, after.objects.resourceClaims.list());
    for (const [k, pod] of nowPending) if (!this.pending.has(k)) this.arrive(pod);
  }

  // ---- attempts -------------------------------------------------------------------------

  private setPending(pod: Pod): void {
    const key = podKeyOf(pod);
    const old = this.pending.get(key);
    this.pending.set(key, pod);
    if (!pod.status?.nominatedNodeName && old?.status?.nominatedNodeName)
      this.sim.nominator.delete(podUid(pod));
    const info = this.queue.get(pod);
    if (info) info.update(pod);
  }

  private attempt(info: QueuedPodInfo): void {
    const key = info.key;
    const pod = info.pod;
    const rec = this.pods.get(key)!;
    rec.attempts++;
    rec.firstAttemptAt ??= this.now / 1000;
    const fwk = this.sim.frameworkFor(pod);
    const cycle = this.queue.schedulingCycle();
    if (!fwk) {
      rec.lastFailure = `no profile for schedulerName "${pod.spec?.schedulerName}"`;
      this.queue.done(info.uid);
      this.pending.delete(key);
      rec.outcome = 'error';
      return;
    }
    const record = this.sim.algorithm.schedulePod(fwk, pod, this.explain);
    if (record.selectedNode && !record.error) {
      const bound = this.sim.bind(fwk, pod, record, this.now / 1000);
      if (typeof bound !== 'string') return this.bound(info, record.selectedNode);
      rec.lastFailure = bound;
      rec.lastQueue = this.queue.failed(info, {}, cycle);
      return;
    }
    let message = record.error ?? record.message;
    if (!record.error && this.preemption && fwk.postFilterPlugins.length > 0) {
      const post = this.sim.postFilter(fwk, record, pod);
      const nominated = post.result?.nominatedNodeName;
      if (nominated && post.succeeded) {
        const current = this.sim.nominate(pod, nominated);
        this.pending.set(key, current);
        info.update(current);
        rec.nominatedNode = nominated;
        const victims = post.result?.victims ?? [];
        // Preemption avoids violating budgets where it can, but goes ahead (upstream's best effort).
        const violations =
          post.result?.candidates?.find((c) => c.nodeName === nominated)?.numPDBViolations ?? 0;
        this.preemptions.push({
          at: this.now / 1000,
          preemptor: key,
          node: nominated,
          victims: victims.map(podKeyOf).sort(),
          ...(violations > 0 ? { pdbViolations: violations } : {}),
        });
        for (const v of victims) this.terminate(podKeyOf(v), key);
        message = record.message;
      } else {
        if (post.result && !nominated && pod.status?.nominatedNodeName) {
          // Preemption found no candidate: the nomination is cleared (upstream's ModeOverride with "").
          const cleared = withoutNominatedNode(pod);
          this.sim.nominator.delete(info.uid);
          this.pending.set(key, cleared);
          info.update(cleared);
          delete rec.nominatedNode;
        }
        if (post.status?.message()) {
          record.diagnosis.postFilterMsg = post.status.message();
          message = fitErrorMessage(this.sim.snapshot.size, record.diagnosis);
        }
      }
    }
    rec.lastFailure = message;
    rec.lastQueue = this.queue.failed(info, attemptFailureOf(record), cycle);
  }

  private bound(info: QueuedPodInfo, node: string): void {
    const key = info.key;
    this.queue.done(info.uid);
    this.pending.delete(key);
    const pod = this.sim.assumedPod(info.pod, node, this.now / 1000);
    this.running.set(key, pod);
    const rec = this.pods.get(key)!;
    Object.assign(rec, { outcome: 'scheduled', node, boundAt: this.now / 1000 });
    delete rec.lastQueue;
    const refusal = this.kubeletAdmission(node, pod);
    if (refusal) {
      // The kubelet fails the pod: it leaves the node at once and nothing recreates a bare pod.
      rec.lastFailure = refusal;
      this.podGone(key, 'rejected');
      return;
    }
    const owner = controllerUid(pod);
    if (owner !== undefined) this.rejections.delete(owner);
    const runFor = this.runFor.get(key);
    if (runFor !== undefined) this.due.push(this.now + runFor, () => this.complete(key, pod));
    this.queue.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, pod);
    this.nextOrdinals(key);
  }

  /** An OrderedReady StatefulSet creates its next ordinal once the previous one is scheduled. */
  private nextOrdinals(key: string): void {
    if (!this.awaitedOrdinals.delete(key)) return;
    const name = key.slice(key.indexOf('/') + 1);
    for (const controller of this.statefulSets) {
      if (namespaceOf(controller.set) !== key.slice(0, key.indexOf('/'))) continue;
      if (controller.ordinalOf(name) === undefined) continue;
      controller.observe(name, true);
      const claims: PersistentVolumeClaim[] = [];
      // The resourceclaim controller generates the new ordinal's DRA claims from their templates.
      const pods = admitStatefulSetStep(controller, this.policy, this.rejected, claims).map((p) =>
        syncPodClaims(p, this.sim.objects),
      );
      for (const c of claims) this.sim.objects.persistentVolumeClaims.set(c);
      for (const p of pods) {
        this.awaitedOrdinals.add(podKeyOf(p));
        this.charged.add(podKeyOf(p));
        this.arrive(p);
      }
    }
  }

  /**
   * The kubelet's admission of a pod just bound to `node` (its resource check): the pods' requests
   * may not exceed capacity − reserved − the hard eviction threshold that the timeline's `kubelet`
   * entries give the node. Returns the kubelet's message when it refuses, as upstream words it.
   */
  private kubeletAdmission(node: string, pod: Pod): string | undefined {
    const entries = this.timeline.kubelet.filter((k) => !k.nodes || k.nodes.includes(node));
    const ni = this.sim.snapshot.get(node);
    if (entries.length === 0 || !ni) return undefined;
    const capacity = ni.node.status?.capacity ?? ni.node.status?.allocatable ?? {};
    const used: Record<string, number> = { cpu: ni.requested.milliCPU, memory: ni.requested.memory };
    const requested = podRequests(pod);
    for (const resource of ['cpu', 'memory'] as const) {
      const total = capacity[resource];
      if (total === undefined) continue;
      let admissible = resourceAmount(resource, total);
      for (const k of entries)
        for (const list of [k.systemReserved, k.kubeReserved, k.evictionHard]) {
          const q = list?.[resource];
          if (q !== undefined) admissible -= resourceAmount(resource, q);
        }
      if (used[resource] > admissible) {
        const own = requested.get(resource) ?? 0;
        return `OutOf${resource}: Pod was rejected: Node didn't have enough resource: ${resource}, requested: ${own}, used: ${used[resource] - own}, capacity: ${admissible}`;
      }
    }
    return undefined;
  }

  private complete(key: string, pod: Pod): void {
    // Only the run that was scheduled: a preempted or deleted pod does not complete.
    if (this.running.get(key) !== pod || this.terminating.has(key)) return;
    this.podGone(key, 'completed');
  }

  /** A pod's record; the dump's running pods get theirs when something happens to them. */
  private recordOf(key: string, pod: Pod): TimelinePod {
    let rec = this.pods.get(key);
    if (!rec) {
      rec = {
        pod: key,
        priority: podPriority(pod),
        arrivedAt: 0,
        attempts: 0,
        outcome: 'scheduled',
        node: pod.spec?.nodeName,
      };
      this.pods.set(key, rec);
    }
    return rec;
  }

  /** A preemption victim: deletionTimestamp now, resources held until its grace period ends. */
  private terminate(key: string, by: string): void {
    const pod = this.running.get(key);
    if (!pod || this.terminating.has(key)) return;
    this.terminating.add(key);
    const graceMs = (pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
    const dying: Pod = {
      ...pod,
      metadata: { ...pod.metadata, deletionTimestamp: new Date(this.clock.now()).toISOString() },
    };
    this.sim.replaceRunningPod(pod, dying);
    this.running.set(key, dying);
    const rec = this.recordOf(key, pod);
    Object.assign(rec, { outcome: 'preempted', preemptedBy: by, preemptedAt: this.now / 1000 });
    if (graceMs === 0) this.podGone(key, 'preempted');
    else this.due.push(this.now + graceMs, () => this.podGone(key, 'preempted'));
  }

  // ---- series ---------------------------------------------------------------------------

  /** Samples every step up to and including `t` (ms after the start), with the state as it is now. */
  private sampleUpTo(t: number): void {
    while (this.nextSample <= t) {
      this.sample(this.nextSample);
      this.nextSample += this.timeline.sampleEveryMs;
    }
  }

  private sample(t: number): void {
    const s = this.series;
    s.t.push(t / 1000);
    let gated = 0;
    for (const p of this.queue.unschedulablePods.podInfoMap.values()) if (p.gated) gated++;
    s.active.push(this.queue.activeQ.length);
    s.backoff.push(this.queue.backoffQ.length);
    s.unschedulable.push(this.queue.unschedulablePods.size - gated);
    s.gated.push(gated);
    s.running.push(this.running.size);
    const cpu = new Map<string, [number, number]>();
    const mem = new Map<string, [number, number]>();
    for (const ni of this.sim.snapshot.list()) {
      const z = zoneOf(ni.node) ?? '';
      const c = cpu.get(z) ?? [0, 0];
      c[0] += ni.requested.milliCPU;
      c[1] += ni.allocatable.milliCPU;
      cpu.set(z, c);
      const m = mem.get(z) ?? [0, 0];
      m[0] += ni.requested.memory;
      m[1] += ni.allocatable.memory;
      mem.set(z, m);
    }
    this.zones.forEach((z, i) => {
      const c = cpu.get(z);
      const m = mem.get(z);
      s.utilization.cpu[i].push(c && c[1] > 0 ? round3(c[0] / c[1]) : 0);
      s.utilization.memory[i].push(m && m[1] > 0 ? round3(m[0] / m[1]) : 0);
    });
  }

  /** Where a pod still pending at the end waits and why. */
  private describePending(key: string): { queue?: string } {
    const pod = this.pending.get(key);
    if (!pod) return {};
    const q = this.queue.queueOf(pod);
    const info = this.queue.get(pod);
    return {
      queue: info?.gated
        ? 'Gated'
        : q === ACTIVE_Q || q === BACKOFF_Q || q === UNSCHEDULABLE_Q
          ? q
          : undefined,
    };
  }
}

const controllerUid = (pod: Pod) => {
  const owner = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  return owner ? (owner.uid ?? `${owner.kind}/${owner.name}`) : undefined;
};

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const podUid = (pod: Pod) => pod.metadata?.uid ?? podKeyOf(pod);
