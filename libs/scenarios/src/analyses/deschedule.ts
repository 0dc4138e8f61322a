/**
 * Descheduler what-ifs: a DeschedulerPolicy runs against the running cluster (@schedlab/descheduler,
 * with its NodeFit answered by the engine's own filters), the evicted pods' controllers recreate
 * them (@schedlab/workloads' recreateDeletedPods) and the engine schedules the replacements with
 * the snapshot's profile. Optionally round after round, as the descheduler runs on an interval,
 * until a round evicts nothing; a pod evicted again, or a workload landing back on a node it was
 * evicted from, is reported as oscillation.
 */
import {
  namespaceOf,
  podKeyOf,
  seededRandomInt,
  selectorFromLabelSelector,
  zoneOf,
  type KubeObject,
  type LabelSelector,
  type Node,
  type Pod,
} from '@schedlab/k8s';
import {
  DEFAULT_START_TIME_BASE,
  buildClusterState,
  createNodeFit,
  createSimulator,
  syncPodClaims,
  type EngineSetup,
  type NodeFit,
  type PodSchedulingResult,
  type Simulator,
} from '@schedlab/scheduler';
import { replaceStorageObjects } from '@schedlab/storage';
import { recreateDeletedPods } from '@schedlab/workloads';
import { releaseClaimsIn, releaseDeviceClaims, withPassClaims } from '../scenario/device-claims';
import type { DeschedulerRunner } from './descheduler-runner';
import { utilization, type ResourceUse } from './utilization';
import type { EngineOptions } from '../scenario/world';

export interface DescheduleRequest {
  /** A DeschedulerPolicy (descheduler/v1alpha2) as an object; the caller reads YAML. */
  policy: unknown;
  /** Descheduling rounds to run at most (default 1); rounds stop early once one evicts nothing. */
  rounds?: number;
  /** The descheduler's clock (PodLifeTime, minPodAge): ISO time or ms; default the snapshot's newest timestamp. */
  now?: string | number;
  /** Seconds between rounds, as the descheduler's interval (default 300). */
  intervalSeconds?: number;
}

/** What became of one evicted pod. */
export interface EvictionOutcome {
  round: number;
  /** `namespace/name` of the evicted pod. */
  pod: string;
  profile: string;
  strategy: string;
  /** The descheduler's reason, in its words. */
  reason: string;
  /** What the plugin saw, when it says (e.g. the taint not tolerated). */
  detail?: string;
  oldNode: string;
  /** `Kind/name` of the controller that recreates it; absent for a bare pod. */
  owner?: string;
  /** rescheduled: the replacement is bound; unschedulable: it stays pending (fitError); lost: nobody recreates it. */
  outcome: 'rescheduled' | 'unschedulable' | 'lost';
  /** `namespace/name` of the replacement (a StatefulSet pod keeps its name). */
  replacement?: string;
  newNode?: string;
  /** The scheduler's FitError for a replacement that fits nowhere. */
  fitError?: string;
  /** The round the replacement was finally bound in, when a later round freed room for it. */
  scheduledInRound?: number;
  /** The replacement went back to the node its pod was evicted from. */
  sameNode?: boolean;
}

export interface NodeFigures {
  name: string;
  zone: string;
  /** Cordoned (spec.unschedulable). */
  unschedulable: boolean;
  pods: number;
  /** `namespace/name` of every pod bound to the node. */
  podNames: string[];
  cpu: ResourceUse;
  memory: ResourceUse;
}

export interface ZoneFigures {
  zone: string;
  nodes: number;
  pods: number;
  cpu: ResourceUse;
  memory: ResourceUse;
}

/** One topology spread constraint of the cluster's pods and how its pods are spread now. */
export interface SpreadFigure {
  namespace: string;
  /** The constraint's labelSelector in kubectl syntax. */
  selector: string;
  topologyKey: string;
  maxSkew: number;
  whenUnsatisfiable: string;
  /** Matching bound pods per domain (every domain of a node carrying the key). */
  counts: Record<string, number>;
  skew: number;
}

export type ViolationKind = 'taint' | 'nodeAffinity' | 'podAffinity' | 'topologySpread';

/** A bound pod its own node would refuse now, by the scheduler's filters. */
export interface Violation {
  pod: string;
  node: string;
  kind: ViolationKind;
  plugin: string;
  reason: string;
}

export interface ClusterFigures {
  nodes: NodeFigures[];
  zones: ZoneFigures[];
  spread: SpreadFigure[];
  violations: Violation[];
  /** Pods without a node. */
  pending: string[];
}

export interface DeschedulingRound {
  round: number;
  /** The descheduler's clock for the round (ISO). */
  now: string;
  evictions: EvictionOutcome[];
  /** Which eviction limits were reached. */
  limits: string[];
  /** Evictions a limit or a PodDisruptionBudget refused. */
  refused: number;
  /** Set when the cycle did not run, in the descheduler's words. */
  skipped?: string;
  /** Pods that were pending before the evictions and found a node once they freed room. */
  pendingScheduled?: { pod: string; node: string }[];
  /** Running pods the rescheduling preempted (recreated pending by their controllers). */
  preempted?: { pod: string; by: string }[];
}

export interface Oscillation {
  kind: 'evictedAgain' | 'returnedToOldNode';
  /** evictedAgain: the first evicted pod of the line; returnedToOldNode: the replacement. */
  pod: string;
  workload?: string;
  /** The rounds involved, in order. */
  rounds: number[];
  /** evictedAgain: every node the line was evicted from; returnedToOldNode: the node returned to. */
  nodes: string[];
}

export interface DeschedulingReport {
  rounds: DeschedulingRound[];
  /** Every eviction of every round, in order. */
  evictions: EvictionOutcome[];
  /** True when the last round run evicted nothing. */
  converged: boolean;
  oscillation: Oscillation[];
  /** The replacements' latest scheduling attempts (compact explanations), for the report. */
  scheduling: PodSchedulingResult[];
  before: ClusterFigures;
  after: ClusterFigures;
  summary: { evicted: number; rescheduled: number; unschedulable: number; lost: number; rounds: number };
  /** The cluster once the last round settled. */
  items: KubeObject[];
}

const DEFAULT_INTERVAL_SECONDS = 300;

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/** The newest time the snapshot records (creation, start, condition changes): "now" for it. */
export function snapshotClock(items: readonly KubeObject[]): number {
  let newest = Number.NaN;
  const see = (t: unknown) => {
    if (typeof t !== 'string') return;
    const ms = Date.parse(t);
    if (!Number.isNaN(ms) && !(ms <= newest)) newest = ms;
  };
  for (const o of items) {
    if (o.kind !== 'Pod' && o.kind !== 'Node') continue;
    see(o.metadata?.creationTimestamp);
    const status = (o as { status?: Record<string, unknown> }).status;
    see(status?.startTime);
    for (const c of (status?.conditions as Array<{ lastTransitionTime?: string }> | undefined) ?? [])
      see(c.lastTransitionTime);
  }
  return Number.isNaN(newest) ? Date.parse(DEFAULT_START_TIME_BASE) : newest;
}

function nowOf(request: DescheduleRequest, items: readonly KubeObject[]): number {
  if (request.now === undefined) return snapshotClock(items);
  const ms = typeof request.now === 'number' ? request.now : Date.parse(request.now);
  if (Number.isNaN(ms))
    throw new Error(`now: "${request.now}" is not a time (RFC 3339, e.g. 2030-01-01T00:00:00Z)`);
  return ms;
}

const nodeName = (n: { metadata?: { name?: string } }): string => n.metadata?.name ?? '';
const isPod = (o: KubeObject): boolean => o.kind === 'Pod';
const podsOf = (items: readonly KubeObject[]): Pod[] => items.filter(isPod) as unknown as Pod[];
const nodesOf = (items: readonly KubeObject[]): Node[] =>
  items.filter((o) => o.kind === 'Node') as unknown as Node[];

function ownerOf(pod: Pod): string | undefined {
  const c = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
  return c ? `${c.kind}/${c.name}` : undefined;
}

function selectorText(sel: LabelSelector | undefined): string {
  const parts = Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of sel?.matchExpressions ?? []) {
    if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${e.operator.toLowerCase()} (${(e.values ?? []).join(',')})`);
  }
  return parts.join(',');
}

/** The spread of every topology spread constraint the cluster's pods carry. */
function spreadFigures(items: readonly KubeObject[], constraintsFrom: readonly Pod[]): SpreadFigure[] {
  const nodes = nodesOf(items);
  const pods = podsOf(items).filter((p) => p.spec?.nodeName);
  const nodeByName = new Map(nodes.map((n) => [nodeName(n), n]));
  const seen = new Map<string, SpreadFigure>();
  for (const p of constraintsFrom) {
    for (const c of p.spec?.topologySpreadConstraints ?? []) {
      const namespace = namespaceOf(p);
      const selector = selectorText(c.labelSelector ?? undefined);
      const id = JSON.stringify([namespace, selector, c.topologyKey, c.maxSkew, c.whenUnsatisfiable]);
      if (seen.has(id)) continue;
      const matches = selectorFromLabelSelector(c.labelSelector ?? undefined);
      // A Map: an object's lookup of a domain named "constructor" or "toString" would find
      // Object.prototype's.
      const byDomain = new Map<string, number>();
      for (const n of nodes) {
        const domain = n.metadata?.labels?.[c.topologyKey];
        if (domain !== undefined && !byDomain.has(domain)) byDomain.set(domain, 0);
      }
      for (const q of pods) {
        if (namespaceOf(q) !== namespace || !matches.matches(q.metadata?.labels)) continue;
        const domain = nodeByName.get(q.spec!.nodeName!)?.metadata?.labels?.[c.topologyKey];
        if (domain !== undefined) byDomain.set(domain, (byDomain.get(domain) ?? 0) + 1);
      }
      const counts = Object.fromEntries(byDomain);
      const values = [...byDomain.values()];
      seen.set(id, {
        namespace,
        selector,
        topologyKey: c.topologyKey,
        maxSkew: c.maxSkew,
        whenUnsatisfiable: c.whenUnsatisfiable,
        counts,
        skew: values.length ? Math.max(...values) - Math.min(...values) : 0,
      });
    }
  }
  return [...seen.values()].sort((a, b) =>
    `${a.namespace}/${a.selector}/${a.topologyKey}`.localeCompare(
      `${b.namespace}/${b.selector}/${b.topologyKey}`,
    ),
  );
}

const VIOLATION_OF: Record<string, ViolationKind> = {
  TaintToleration: 'taint',
  NodeAffinity: 'nodeAffinity',
  InterPodAffinity: 'podAffinity',
  PodTopologySpread: 'topologySpread',
};

/** Pods whose placement a taint, node affinity, pod (anti-)affinity or hard spread constraint bears on. */
function constrained(pod: Pod, taintedNodes: ReadonlySet<string>): boolean {
  const spec = pod.spec;
  if (!spec) return false;
  const a = spec.affinity;
  return (
    taintedNodes.has(spec.nodeName ?? '') ||
    Object.keys(spec.nodeSelector ?? {}).length > 0 ||
    a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution !== undefined ||
    (a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
    (a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
    (spec.topologySpreadConstraints ?? []).some((c) => c.whenUnsatisfiable === 'DoNotSchedule')
  );
}

/** Bound pods their own node would refuse now: the NodeFit of each pod on its node. */
function violations(items: readonly KubeObject[], fit: NodeFit): Violation[] {
  const tainted = new Set(
    nodesOf(items)
      .filter((n) =>
        (n.spec?.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
      )
      .map(nodeName),
  );
  const out: Violation[] = [];
  for (const pod of podsOf(items)) {
    const node = pod.spec?.nodeName;
    if (!node || !constrained(pod, tainted)) continue;
    const verdict = fit(pod, node);
    const kind = verdict.plugin ? VIOLATION_OF[verdict.plugin] : undefined;
    if (verdict.fits || !kind) continue;
    out.push({ pod: podKeyOf(pod), node, kind, plugin: verdict.plugin!, reason: verdict.reason ?? '' });
  }
  return out;
}

function simulatorOf(
  items: readonly KubeObject[],
  setup: EngineSetup,
  engine: EngineOptions,
  now: number,
  seed: number,
): Simulator {
  return createSimulator(buildClusterState(items), setup, {
    ...engine,
    seed,
    startTimeBase: iso(now),
    explain: 'compact',
  });
}

/** Utilization per node and zone, spread skews and violations of a cluster. */
export function clusterFigures(
  items: readonly KubeObject[],
  fit: NodeFit,
  constraintsFrom: readonly Pod[] = podsOf(items),
): ClusterFigures {
  const nodes = nodesOf(items);
  const pods = podsOf(items);
  const use = utilization(nodes, pods);
  const byNode = new Map<string, string[]>();
  for (const p of pods)
    if (p.spec?.nodeName) byNode.set(p.spec.nodeName, [...(byNode.get(p.spec.nodeName) ?? []), podKeyOf(p)]);
  const nodeFigures = nodes.map((n) => {
    const u = use.nodes[nodeName(n)];
    return {
      name: nodeName(n),
      zone: zoneOf(n) ?? '',
      unschedulable: n.spec?.unschedulable === true,
      pods: u.pods.requested,
      podNames: (byNode.get(nodeName(n)) ?? []).sort(),
      cpu: u.cpu,
      memory: u.memory,
    };
  });
  const zones = Object.entries(use.zones)
    .map(([zone, u]) => ({
      zone,
      nodes: nodes.filter((n) => (zoneOf(n) ?? '') === zone).length,
      pods: u.pods.requested,
      cpu: u.cpu,
      memory: u.memory,
    }))
    .sort((a, b) => a.zone.localeCompare(b.zone));
  return {
    nodes: nodeFigures,
    zones,
    spread: spreadFigures(items, constraintsFrom),
    violations: violations(items, fit),
    pending: pods.filter((p) => !p.spec?.nodeName).map(podKeyOf),
  };
}

/** The items with each pod replaced by the cluster state's defaulted, admitted copy. */
function withAdmittedPods(items: readonly KubeObject[]): KubeObject[] {
  const state = buildClusterState(items);
  const admitted = new Map(
    [...state.runningPods, ...state.pendingPods, ...state.orphanPods].map((p) => [podKeyOf(p), p]),
  );
  return items.map((o) => (isPod(o) ? ((admitted.get(podKeyOf(o)) as unknown as KubeObject) ?? o) : o));
}

/** Runs the policy `request.rounds` times at most over a running cluster, rescheduling what it evicts. */
export function deschedule(
  items: readonly KubeObject[],
  request: DescheduleRequest,
  engine: EngineOptions,
  setup: EngineSetup,
  runner: DeschedulerRunner,
): DeschedulingReport {
  const maxRounds = request.rounds ?? 1;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) throw new Error(`rounds: must be a positive integer`);
  const start = nowOf(request, items);
  const interval = (request.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000;
  const baseSeed = engine.seed ?? 0;
  // Pods as the API server holds them (defaulted, priority admitted), as the descheduler and the
  // scheduler read them: a container's limits-only GPU is then a request too.
  const initial = withAdmittedPods(items);
  let current: KubeObject[] = [...initial];
  const rounds: DeschedulingRound[] = [];
  /** Replacement key → the first evicted pod of its line. */
  const lineage = new Map<string, string>();
  /** Replacements still pending, with the eviction they answer. */
  const waiting = new Map<string, EvictionOutcome>();
  const attempts = new Map<string, PodSchedulingResult>();
  let converged = false;

  for (let round = 1; round <= maxRounds; round++) {
    const now = start + (round - 1) * interval;
    const sim = simulatorOf(current, setup, engine, now, baseSeed + round - 1);
    const fit = createNodeFit(sim);
    const pass = runner(current, request.policy, {
      now,
      podFitsNode: (pod, node) => fit(pod, nodeName(node)).fits,
    });
    if (pass.evictions.length === 0) {
      // A cycle that evicts nothing still says why when it was skipped or refused.
      if (pass.skipped || pass.refused > 0)
        rounds.push({
          round,
          now: iso(now),
          evictions: [],
          limits: pass.limits,
          refused: pass.refused,
          ...(pass.skipped ? { skipped: pass.skipped } : {}),
        });
      converged = true;
      break;
    }
    const byKey = new Map(podsOf(current).map((p) => [podKeyOf(p), p]));
    const evictedPods: Pod[] = [];
    const outcomes: EvictionOutcome[] = [];
    for (const e of pass.evictions) {
      const pod = byKey.get(e.pod);
      if (!pod)
        throw new Error(`internal: the descheduler evicted ${e.pod}, which the cluster does not have`);
      evictedPods.push(pod);
      sim.evict(pod);
      const owner = ownerOf(pod);
      outcomes.push({
        round,
        pod: e.pod,
        profile: e.profile,
        strategy: e.strategy,
        reason: e.reason,
        ...(e.detail ? { detail: e.detail } : {}),
        oldNode: e.node || pod.spec?.nodeName || '',
        ...(owner ? { owner } : {}),
        outcome: 'lost',
      });
    }
    const evicted = new Set(evictedPods);
    // The resourceclaim controller frees what the evicted pods held before their replacements come.
    releaseClaimsIn(
      sim.objects,
      current.filter((o) => !evicted.has(o as unknown as Pod)),
    );
    const live = new Set(nodesOf(current).map(nodeName));
    const { recreated } = recreateDeletedPods(evictedPods, seededRandomInt(baseSeed + round - 1), live);
    const createdAt = iso(now);
    const replacements = recreated.map(({ deleted, replacement }) => {
      const outcome = outcomes[evictedPods.indexOf(deleted)];
      const pod = syncPodClaims(
        { ...replacement, metadata: { ...replacement.metadata, creationTimestamp: createdAt } },
        sim.objects,
      );
      outcome.replacement = podKeyOf(pod);
      outcome.outcome = 'unschedulable';
      lineage.set(podKeyOf(pod), lineage.get(outcome.pod) ?? outcome.pod);
      waiting.set(podKeyOf(pod), outcome);
      return pod;
    });
    // The evictions are pod deletions: the scheduler retries every pending pod with the
    // replacements (the snapshot's own pending pods and replacements from earlier rounds too).
    const retried = podsOf(current).filter((p) => !p.spec?.nodeName);
    const requeued = new Set(retried);
    let next: KubeObject[] = current.filter(
      (o) => !evicted.has(o as unknown as Pod) && !requeued.has(o as unknown as Pod),
    );
    const pendingScheduled: { pod: string; node: string }[] = [];
    const preempted: { pod: string; by: string }[] = [];
    let volumesBound = false;
    sim.queueOrder([...retried, ...replacements]).forEach((pod, k) => {
      const r = sim.scheduleOne(pod, k);
      volumesBound ||= r.volumes !== undefined;
      // Preemption victims are deleted; their controllers recreate them pending.
      for (const victim of r.victims ?? []) {
        const gone = next.find((o) => isPod(o) && podKeyOf(o) === victim) as Pod | undefined;
        if (!gone) continue;
        next = next.filter((o) => o !== (gone as unknown as KubeObject));
        preempted.push({ pod: victim, by: r.pod });
        const again = recreateDeletedPods([gone], seededRandomInt(baseSeed + round + k), live).recreated;
        for (const { replacement } of again)
          next.push({
            ...replacement,
            metadata: { ...replacement.metadata, creationTimestamp: createdAt },
          } as unknown as KubeObject);
      }
      const outcome = waiting.get(r.pod);
      if (outcome) attempts.set(r.pod, r);
      if (r.node) {
        next.push(sim.assumedPod(pod, r.node, k) as unknown as KubeObject);
        if (!outcome) {
          pendingScheduled.push({ pod: r.pod, node: r.node });
          return;
        }
        waiting.delete(r.pod);
        outcome.outcome = 'rescheduled';
        outcome.newNode = r.node;
        delete outcome.fitError;
        if (outcome.round !== round) outcome.scheduledInRound = round;
        outcome.sameNode = r.node === outcome.oldNode;
      } else {
        next.push(pod as unknown as KubeObject);
        if (outcome) outcome.fitError = r.message ?? r.error ?? 'unschedulable';
      }
    });
    current = volumesBound
      ? replaceStorageObjects(next, [
          ...(sim.objects.persistentVolumes.list() as unknown as KubeObject[]),
          ...(sim.objects.persistentVolumeClaims.list() as unknown as KubeObject[]),
        ])
      : next;
    // The round's claims (the replacements' generated and allocated ones) carry into the next.
    current = releaseDeviceClaims(
      withPassClaims(current, sim.objects.resourceClaims.list() as unknown as KubeObject[], replacements),
    );
    rounds.push({
      round,
      now: iso(now),
      evictions: outcomes,
      limits: pass.limits,
      refused: pass.refused,
      ...(pendingScheduled.length ? { pendingScheduled } : {}),
      ...(preempted.length ? { preempted } : {}),
    });
  }

  const evictions = rounds.flatMap((r) => r.evictions);
  const endNow = start + Math.max(0, rounds.length - 1) * interval;
  const afterFit = createNodeFit(simulatorOf(current, setup, engine, endNow, baseSeed));
  // The first round's NodeFit saw evictions; the figures get one of their own.
  const beforeFit = createNodeFit(simulatorOf(initial, setup, engine, start, baseSeed));
  // Both sides show every constraint either side has, so a row can be compared across them.
  const constraintsFrom = [...podsOf(initial), ...podsOf(current)];
  const present = new Set(podsOf(current).map(podKeyOf));
  return {
    rounds,
    evictions,
    converged,
    oscillation: oscillationOf(evictions, lineage),
    // Replacements a later round evicted again are gone; their attempts go with them.
    scheduling: [...attempts.values()].filter((r) => present.has(r.pod)),
    before: clusterFigures(initial, beforeFit, constraintsFrom),
    after: clusterFigures(current, afterFit, constraintsFrom),
    summary: {
      evicted: evictions.length,
      rescheduled: evictions.filter((e) => e.outcome === 'rescheduled').length,
      unschedulable: evictions.filter((e) => e.outcome === 'unschedulable').length,
      lost: evictions.filter((e) => e.outcome === 'lost').length,
      rounds: rounds.length,
    },
    items: current,
  };
}

function oscillationOf(
  evictions: readonly EvictionOutcome[],
  lineage: ReadonlyMap<string, string>,
): Oscillation[] {
  const out: Oscillation[] = [];
  const lines = new Map<string, EvictionOutcome[]>();
  for (const e of evictions) {
    const root = lineage.get(e.pod) ?? e.pod;
    lines.set(root, [...(lines.get(root) ?? []), e]);
  }
  for (const [root, line] of lines)
    if (line.length > 1)
      out.push({
        kind: 'evictedAgain',
        pod: root,
        ...(line[0].owner ? { workload: line[0].owner } : {}),
        rounds: line.map((e) => e.round),
        nodes: line.map((e) => e.oldNode),
      });
  // A workload's replacement placed on a node one of its pods was evicted from (that round or before).
  for (const e of evictions) {
    if (!e.newNode || !e.owner) continue;
    const placedIn = e.scheduledInRound ?? e.round;
    const earlier = evictions.find(
      (x) =>
        x.owner === e.owner &&
        x.pod.split('/')[0] === e.pod.split('/')[0] &&
        x.oldNode === e.newNode &&
        x.round <= placedIn,
    );
    if (earlier)
      out.push({
        kind: 'returnedToOldNode',
        pod: e.replacement!,
        workload: e.owner,
        rounds: [earlier.round, placedIn],
        nodes: [e.newNode],
      });
  }
  return out;
}
