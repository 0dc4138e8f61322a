/**
 * What PreFilter and PreScore share: constraints compiled for one pod (selector, minDomains,
 * node inclusion policies), the default-constraint path, and matching-pod counting.
 */
import {
  findMatchingUntoleratedTaint,
  isNothing,
  mergeSelectorsAnd,
  requiredLabelOf,
  selectorFromLabelSelector,
  selectorFromSet,
} from '@schedlab/k8s';
import type {
  Labels,
  Node,
  Pod,
  RequiredNodeAffinity,
  Selector,
  Taint,
  TopologySpreadConstraint,
} from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import type { NodeInfoLister, PodChange } from '../../interface';
import type { NodeInfo, PodInfo } from '../../types';
import type { TopologyDomains } from '../../../backend/cache/topology-domains';
import { defaultSelector } from './default-selector';

export const NODE_INCLUSION_HONOR = 'Honor';
export const NODE_INCLUSION_IGNORE = 'Ignore';

/** A pod's constraint as the plugin evaluates it (upstream topologySpreadConstraint). */
export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  minDomains: number;
  /** nodeAffinityPolicy === Honor: only nodes passing the pod's required node affinity count. */
  honorNodeAffinity: boolean;
  /** nodeTaintsPolicy === Honor: nodes with a taint the pod does not tolerate do not count. */
  honorNodeTaints: boolean;
}

/** Gates and release switches the constraint logic depends on, resolved once per plugin. */
export interface SpreadOptions {
  minDomains: boolean;
  nodeInclusionPolicy: boolean;
  matchLabelKeys: boolean;
  /** 1.27+: an empty selector counts no pods (v1.26 counted every pod in the namespace). */
  emptySelectorCountsNothing: boolean;
  /** 1.27+: matchLabelKeys on a constraint without labelSelector keeps selecting nothing. */
  matchLabelKeysKeepsNilSelector: boolean;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The node's value for a label, or undefined when the node lacks the label (Go's `v, ok :=`). */
export function nodeLabel(labels: Labels | undefined, key: string): string | undefined {
  return labels !== undefined && hasOwn.call(labels, key) ? labels[key] : undefined;
}

export function nodeHasAllTopologyKeys(
  labels: Labels | undefined,
  constraints: readonly SpreadConstraint[],
): boolean {
  for (const c of constraints) if (nodeLabel(labels, c.topologyKey) === undefined) return false;
  return true;
}

/** Taints that keep a pod off a node in Filter (upstream DoNotScheduleTaintsFilterFunc). */
function doNotScheduleTaint(t: Taint): boolean {
  return t.effect === 'NoSchedule' || t.effect === 'NoExecute';
}

/** Whether the node counts for this constraint under its node inclusion policies. */
export function nodeIncludedByPolicies(
  c: SpreadConstraint,
  pod: Pod,
  node: Node,
  requiredAffinity: RequiredNodeAffinity,
): boolean {
  if (c.honorNodeAffinity && !requiredAffinity.match(node)) return false;
  if (c.honorNodeTaints) {
    if (
      findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaint) !== undefined
    ) {
      return false;
    }
  }
  return true;
}

/** matchLabelKeys: the pod's own values for the listed keys are ANDed into the selector. */
function withMatchLabelKeys(
  selector: Selector,
  keys: readonly string[],
  podLabels: Labels,
  opts: SpreadOptions,
): Selector {
  const matchLabels: Labels = {};
  let any = false;
  for (const k of keys) {
    if (hasOwn.call(podLabels, k)) {
      matchLabels[k] = podLabels[k];
      any = true;
    }
  }
  if (!any) return selector;
  const fromSet = selectorFromSet(matchLabels);
  // v1.26 dropped a nil selector here (it has no requirements to carry over) and matched by keys alone.
  if (isNothing(selector)) return opts.matchLabelKeysKeepsNilSelector ? selector : fromSet;
  return mergeSelectorsAnd([fromSet, selector]);
}

/**
 * The pod's constraints with the given whenUnsatisfiable, compiled. Throws LabelSelectorError
 * for an invalid labelSelector, which the caller turns into an Error status as upstream does.
 */
export function compileConstraints(
  constraints: readonly TopologySpreadConstraint[],
  podLabels: Labels | undefined,
  action: string,
  opts: SpreadOptions,
): SpreadConstraint[] {
  const result: SpreadConstraint[] = [];
  for (const c of constraints) {
    if (c.whenUnsatisfiable !== action) continue;
    let selector = selectorFromLabelSelector(c.labelSelector ?? null);
    if (opts.matchLabelKeys && c.matchLabelKeys && c.matchLabelKeys.length > 0) {
      selector = withMatchLabelKeys(selector, c.matchLabelKeys, podLabels ?? {}, opts);
    }
    result.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector,
      minDomains: opts.minDomains && c.minDomains != null ? c.minDomains : 1,
      honorNodeAffinity: opts.nodeInclusionPolicy
        ? (c.nodeAffinityPolicy ?? NODE_INCLUSION_HONOR) === NODE_INCLUSION_HONOR
        : true,
      honorNodeTaints: opts.nodeInclusionPolicy
        ? (c.nodeTaintsPolicy ?? NODE_INCLUSION_IGNORE) === NODE_INCLUSION_HONOR
        : false,
    });
  }
  return result;
}

/**
 * Constraints of one whenUnsatisfiable for `pod`: its own if it has any, else the configured
 * defaults with a selector deduced from the Services and controllers that select/own it.
 */
export function constraintsForPod(
  pod: Pod,
  action: string,
  defaults: readonly TopologySpreadConstraint[],
  objects: ClusterObjects,
  opts: SpreadOptions,
): SpreadConstraint[] {
  const own = pod.spec?.topologySpreadConstraints;
  if (own && own.length > 0) return compileConstraints(own, pod.metadata?.labels, action, opts);
  const constraints = compileConstraints(defaults, pod.metadata?.labels, action, opts);
  if (constraints.length === 0) return constraints;
  const selector = defaultSelector(pod, objects);
  if (selector.isEmpty()) return [];
  for (const c of constraints) c.selector = selector;
  return constraints;
}

/** Whether a pod in `namespace` counts for the selector; terminating pods do not count. */
export function podMatches(pi: PodInfo, selector: Selector, namespace: string, opts: SpreadOptions): boolean {
  if (opts.emptySelectorCountsNothing && selector.isEmpty()) return false;
  const meta = pi.pod.metadata;
  if (meta?.deletionTimestamp != null || (meta?.namespace ?? 'default') !== namespace) return false;
  return selector.matches(meta?.labels);
}

/** Pods on a node in `namespace` that the selector matches; terminating pods do not count. */
export function countMatchingPods(
  pods: readonly PodInfo[],
  selector: Selector,
  namespace: string,
  opts: SpreadOptions,
): number {
  if (opts.emptySelectorCountsNothing && selector.isEmpty()) return 0;
  let count = 0;
  for (let i = 0; i < pods.length; i++) if (podMatches(pods[i], selector, namespace, opts)) count++;
  return count;
}

export function podNamespace(pod: Pod): string {
  return pod.metadata?.namespace ?? 'default';
}

/** Distinct (namespace, selector) pairs remembered before the cache starts over. */
const MAX_REMEMBERED_SELECTORS = 4096;

/**
 * Matching pods per topology value, summed over the snapshot's nodes that have every key of a
 * constraint set: the counts PreFilter and PreScore start from when no inclusion policy leaves a
 * node out. Values appear in node order of first appearance, as a fresh count inserts them.
 */
interface DomainTotals {
  totals: Map<string, number>;
  /** Per node index: its value for the key, or undefined when it lacks one of the keys (read only). */
  valueOf: readonly (string | undefined)[];
}

/**
 * One selector's matching pods per snapshot node and per topology value, kept up to date by
 * MatchingPodCounts from the snapshot's pod change log.
 */
export class SelectorCounts {
  private readonly counts: Int32Array;
  private readonly domains = new Map<string, DomainTotals>();

  constructor(
    private readonly selector: Selector,
    private readonly namespace: string,
    private readonly opts: SpreadOptions,
    private readonly nodes: readonly NodeInfo[],
    /** Brings every remembered selector up to date with the change log. */
    private readonly sync: () => void,
    /**
     * The pods of the namespace carrying a label the selector requires, none terminating, with
     * their node index: all that can match. `candidatesMatch`: the selector requires only that
     * label, so every one of them matches (and its labels need not be read again).
     */
    candidates?: ReadonlyMap<PodInfo, number>,
    candidatesMatch = false,
    /** The nodes' values numbered per key, when the lister has them. */
    private readonly topologyDomains?: (key: string) => TopologyDomains,
  ) {
    this.counts = new Int32Array(nodes.length);
    if (candidates && candidatesMatch) {
      for (const i of candidates.values()) this.counts[i]++;
    } else if (candidates) {
      for (const [pi, i] of candidates) if (podMatches(pi, selector, namespace, opts)) this.counts[i]++;
    } else {
      for (let i = 0; i < nodes.length; i++)
        this.counts[i] = countMatchingPods(nodes[i].pods, selector, namespace, opts);
    }
  }

  /** Matching pods on a node of the snapshot; a what-if copy (index -1) is counted afresh. */
  count(ni: NodeInfo): number {
    if (ni.index < 0) return countMatchingPods(ni.pods, this.selector, this.namespace, this.opts);
    this.sync();
    return this.counts[ni.index];
  }

  /** Matching pods per snapshot node, by NodeInfo.index (current; read only). */
  countsByNode(): Int32Array {
    this.sync();
    return this.counts;
  }

  /**
   * Matching pods per value of `key` over the snapshot's nodes that have every one of
   * `requiredKeys` (a node without `key` itself counts under "").
   */
  domainTotals(requiredKeys: readonly string[], key: string): Map<string, number> {
    this.sync();
    const id = `${requiredKeys.join('\u0000')}\u0001${key}`;
    let d = this.domains.get(id);
    if (d === undefined && this.topologyDomains !== undefined) {
      d = domainTotalsByDomain(this.counts, requiredKeys, this.topologyDomains(key), this.topologyDomains);
      this.domains.set(id, d);
    }
    if (d === undefined) {
      const totals = new Map<string, number>();
      const valueOf: (string | undefined)[] = [];
      for (let i = 0; i < this.nodes.length; i++) {
        const labels = this.nodes[i].node.metadata?.labels;
        const hasAll = requiredKeys.every((k) => nodeLabel(labels, k) !== undefined);
        const value = hasAll ? (nodeLabel(labels, key) ?? '') : undefined;
        valueOf.push(value);
        if (value !== undefined) totals.set(value, (totals.get(value) ?? 0) + this.counts[i]);
      }
      d = { totals, valueOf };
      this.domains.set(id, d);
    }
    return d.totals;
  }

  /** Folds one logged change in, if the pod counts for this selector. */
  apply(change: PodChange): void {
    if (!podMatches(change.pod, this.selector, this.namespace, this.opts)) return;
    const i = change.node.index;
    this.counts[i] += change.delta;
    for (const d of this.domains.values()) {
      const value = d.valueOf[i];
      if (value !== undefined) d.totals.set(value, d.totals.get(value)! + change.delta);
    }
  }
}

/**
 * A key's values as count slots: a value's id is its slot, but nodes labelled "" and nodes
 * without the label count under the same "" (a label lookup gives "" for both), in the last slot.
 */
function valueSlots(domains: TopologyDomains): {
  slotOfId: Int32Array;
  valueOfSlot: string[];
  empty: number;
} {
  const empty = domains.size;
  const slotOfId = new Int32Array(empty);
  for (let id = 0; id < empty; id++) slotOfId[id] = domains.values[id] === '' ? empty : id;
  return { slotOfId, valueOfSlot: [...domains.values, ''], empty };
}

/**
 * Where each snapshot node's count goes for one set of required keys and one key
 * (SelectorCounts.domainTotals, PreScore's count when a policy leaves nodes out): the same for
 * every selector and pod, so worked out once per snapshot and shared.
 */
export interface DomainLayout {
  /** The required keys' domains it was built from (the same snapshot's as the key's). */
  required: readonly TopologyDomains[];
  /** Per node index: its slot, or -1 when it lacks one of the required keys. */
  slotOf: Int32Array;
  /** Slot → value; nodes labelled "" and nodes without the key share the last slot, "". */
  valueOfSlot: readonly string[];
  /** Slots in order of first appearance among the nodes that have every required key. */
  order: readonly number[];
  /** Per node index: its value, or undefined when it lacks one of the required keys. */
  valueOf: readonly (string | undefined)[];
}

/** Layouts by the key's domains, then by the required keys. */
const domainLayouts = new WeakMap<TopologyDomains, Map<string, DomainLayout>>();

export function domainLayout(
  requiredKeys: readonly string[],
  domains: TopologyDomains,
  topologyDomains: (key: string) => TopologyDomains,
): DomainLayout {
  const required = requiredKeys.map((k) => topologyDomains(k));
  const id = requiredKeys.join('\u0000');
  let byRequired = domainLayouts.get(domains);
  if (byRequired === undefined) domainLayouts.set(domains, (byRequired = new Map()));
  const known = byRequired.get(id);
  if (known !== undefined && known.required.every((r, i) => r === required[i])) return known;
  const ids = domains.ids;
  const { slotOfId, valueOfSlot, empty } = valueSlots(domains);
  const slotOf = new Int32Array(ids.length);
  const seen = new Uint8Array(empty + 1);
  const order: number[] = [];
  const valueOf: (string | undefined)[] = new Array(ids.length);
  nodes: for (let i = 0; i < ids.length; i++) {
    for (let r = 0; r < required.length; r++) {
      if (required[r].ids[i] < 0) {
        slotOf[i] = -1;
        valueOf[i] = undefined;
        continue nodes;
      }
    }
    const v = ids[i];
    const slot = v >= 0 ? slotOfId[v] : empty;
    slotOf[i] = slot;
    valueOf[i] = valueOfSlot[slot];
    if (seen[slot] === 0) {
      seen[slot] = 1;
      order.push(slot);
    }
  }
  const layout = { required, slotOf, valueOfSlot, order, valueOf };
  byRequired.set(id, layout);
  return layout;
}

/**
 * SelectorCounts.domainTotals' node loop reading slots by node index: the same totals, with
 * values inserted in order of first appearance among the nodes that have every required key.
 */
function domainTotalsByDomain(
  counts: Int32Array,
  requiredKeys: readonly string[],
  domains: TopologyDomains,
  topologyDomains: (key: string) => TopologyDomains,
): DomainTotals {
  const layout = domainLayout(requiredKeys, domains, topologyDomains);
  const slotOf = layout.slotOf;
  const sums = new Float64Array(layout.valueOfSlot.length);
  for (let i = 0; i < counts.length; i++) {
    const slot = slotOf[i];
    if (slot >= 0) sums[slot] += counts[i];
  }
  const totals = new Map<string, number>();
  for (const slot of layout.order) totals.set(layout.valueOfSlot[slot], sums[slot]);
  return { totals, valueOf: layout.valueOf };
}

/** Whether every node with the constraints' keys counts for every constraint (no policy leaves one out). */
export function policiesIncludeEveryNode(
  pod: Pod,
  constraints: readonly SpreadConstraint[],
  opts: SpreadOptions,
): boolean {
  const spec = pod.spec;
  const hasRequiredAffinity =
    (spec?.nodeSelector !== undefined && Object.keys(spec.nodeSelector).length > 0) ||
    spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution != null;
  if (!opts.nodeInclusionPolicy) return !hasRequiredAffinity;
  return constraints.every((c) => !c.honorNodeTaints && (!c.honorNodeAffinity || !hasRequiredAffinity));
}

/**
 * Matching-pod counts per node and per topology value, kept between scheduling cycles and updated
 * from the pods bound or removed since (the snapshot's change log). Upstream counts every pod of
 * every node for every pod it schedules; the result is the same, but replicas of one Deployment
 * share a selector, so on a cluster with 20,000 running pods this turns a label match per running
 * pod into a lookup per pod bound since. Selectors are indexed by a label they require, so a
 * change is tried only against the selectors that could match it.
 */
export class MatchingPodCounts {
  private readonly selectors = new Map<string, SelectorCounts>();
  /** namespace → label key → label value → selectors requiring that label. */
  private readonly byLabel = new Map<string, Map<string, Map<string, SelectorCounts[]>>>();
  /** Selectors without a required label: tried against every change. */
  private readonly unindexed: SelectorCounts[] = [];
  /**
   * namespace → label key → label value → the snapshot's pods with that label, and their node
   * index; terminating pods are left out, as they count for no selector.
   */
  private readonly podsByLabel = new Map<string, Map<string, Map<string, Map<PodInfo, number>>>>();
  /** Position in the change log up to which every remembered selector is current. */
  private synced = 0;
  private readonly syncAll = () => this.sync();
  private readonly topologyDomains?: (key: string) => TopologyDomains;

  constructor(
    private readonly opts: SpreadOptions,
    private readonly lister: Required<Pick<NodeInfoLister, 'list' | 'podChangeLog'>> &
      Pick<NodeInfoLister, 'topologyDomains'>,
  ) {
    if (lister.topologyDomains) this.topologyDomains = (key) => lister.topologyDomains!(key);
  }

  /** The counts for a selector; undefined when it cannot be remembered (counted afresh instead). */
  of(selector: Selector, namespace: string): SelectorCounts | undefined {
    const text = selector.toString();
    // "Everything" and "nothing" both print as ""; they are cheap to count anyway.
    if (text === '') return undefined;
    const key = `${namespace}\u0000${text}`;
    let counts = this.selectors.get(key);
    if (counts === undefined) {
      this.sync();
      if (this.selectors.size >= MAX_REMEMBERED_SELECTORS) this.forgetAll();
      const label = requiredLabelOf(selector);
      const candidates =
        label && (this.podsByLabel.get(namespace)?.get(label.key)?.get(label.value) ?? new Map());
      counts = new SelectorCounts(
        selector,
        namespace,
        this.opts,
        this.lister.list(),
        this.syncAll,
        candidates,
        label?.sole === true,
        this.topologyDomains,
      );
      this.selectors.set(key, counts);
      this.index(selector, namespace, counts);
    }
    return counts;
  }

  private index(selector: Selector, namespace: string, counts: SelectorCounts): void {
    const label = requiredLabelOf(selector);
    if (label === undefined) {
      this.unindexed.push(counts);
      return;
    }
    let byKey = this.byLabel.get(namespace);
    if (byKey === undefined) this.byLabel.set(namespace, (byKey = new Map()));
    let byValue = byKey.get(label.key);
    if (byValue === undefined) byKey.set(label.key, (byValue = new Map()));
    const list = byValue.get(label.value);
    if (list === undefined) byValue.set(label.value, [counts]);
    else list.push(counts);
  }

  private sync(): void {
    const log = this.lister.podChangeLog();
    for (; this.synced < log.length; this.synced++) {
      const change = log[this.synced];
      const meta = change.pod.pod.metadata;
      const namespace = meta?.namespace ?? 'default';
      const byKey = this.byLabel.get(namespace);
      const labels = meta?.labels;
      if (labels !== undefined) {
        for (const key in labels) {
          this.indexPod(namespace, key, labels[key], change);
          const list = byKey?.get(key)?.get(labels[key]);
          if (list !== undefined) for (const counts of list) counts.apply(change);
        }
      }
      for (const counts of this.unindexed) counts.apply(change);
    }
  }

  private indexPod(namespace: string, key: string, value: string, change: PodChange): void {
    let byKey = this.podsByLabel.get(namespace);
    if (byKey === undefined) this.podsByLabel.set(namespace, (byKey = new Map()));
    let byValue = byKey.get(key);
    if (byValue === undefined) byKey.set(key, (byValue = new Map()));
    let pods = byValue.get(value);
    if (pods === undefined) byValue.set(value, (pods = new Map()));
    if (change.delta > 0) {
      if (change.pod.pod.metadata?.deletionTimestamp == null) pods.set(change.pod, change.node.index);
    } else pods.delete(change.pod);
  }

  private forgetAll(): void {
    this.selectors.clear();
    this.byLabel.clear();
    this.unindexed.length = 0;
  }
}
