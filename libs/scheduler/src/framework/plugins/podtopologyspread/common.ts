/**
 * What PreFilter and PreScore share: constraints compiled for one pod (selector, minDomains,
 * node inclusion policies), the default-constraint path, and matching-pod counting.
 */
import {
  findMatchingUntoleratedTaint,
  isNothing,
  mergeSelectorsAnd,
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
import type { NodeInfoLister } from '../../interface';
import type { NodeInfo, PodInfo } from '../../types';
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
  /** Per node index: its value for the key, or undefined when it lacks one of the keys. */
  valueOf: (string | undefined)[];
}

/**
 * One selector's matching pods per snapshot node and per topology value, kept up to date from the
 * snapshot's pod change log: a pod bound or removed since the last look costs one label match.
 */
export class SelectorCounts {
  private counts: Int32Array | undefined;
  /** Position in the change log up to which `counts` and the domain totals are current. */
  private synced = 0;
  private readonly domains = new Map<string, DomainTotals>();

  constructor(
    private readonly selector: Selector,
    private readonly namespace: string,
    private readonly opts: SpreadOptions,
    private readonly lister: Required<Pick<NodeInfoLister, 'list' | 'podChangeLog'>>,
  ) {}

  /** Matching pods on a node of the snapshot; a what-if copy (index -1) is counted afresh. */
  count(ni: NodeInfo): number {
    if (ni.index < 0) return countMatchingPods(ni.pods, this.selector, this.namespace, this.opts);
    return this.current()[ni.index];
  }

  /**
   * Matching pods per value of `key` over the snapshot's nodes that have every one of
   * `requiredKeys` (a node without `key` itself counts under "").
   */
  domainTotals(requiredKeys: readonly string[], key: string): Map<string, number> {
    const counts = this.current();
    const id = `${requiredKeys.join('\u0000')}\u0001${key}`;
    let d = this.domains.get(id);
    if (d === undefined) {
      d = { totals: new Map(), valueOf: [] };
      const nodes = this.lister.list();
      for (let i = 0; i < nodes.length; i++) {
        const labels = nodes[i].node.metadata?.labels;
        const hasAll = requiredKeys.every((k) => nodeLabel(labels, k) !== undefined);
        const value = hasAll ? (nodeLabel(labels, key) ?? '') : undefined;
        d.valueOf.push(value);
        if (value !== undefined) d.totals.set(value, (d.totals.get(value) ?? 0) + counts[i]);
      }
      this.domains.set(id, d);
    }
    return d.totals;
  }

  private current(): Int32Array {
    const log = this.lister.podChangeLog();
    if (this.counts === undefined) {
      const nodes = this.lister.list();
      this.counts = new Int32Array(nodes.length);
      for (let i = 0; i < nodes.length; i++) {
        this.counts[i] = countMatchingPods(nodes[i].pods, this.selector, this.namespace, this.opts);
      }
      this.synced = log.length;
    }
    for (; this.synced < log.length; this.synced++) {
      const change = log[this.synced];
      if (!podMatches(change.pod, this.selector, this.namespace, this.opts)) continue;
      const i = change.node.index;
      this.counts[i] += change.delta;
      for (const d of this.domains.values()) {
        const value = d.valueOf[i];
        if (value !== undefined) d.totals.set(value, d.totals.get(value)! + change.delta);
      }
    }
    return this.counts;
  }
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
 * pod into one per pod bound since the last replica.
 */
export class MatchingPodCounts {
  private readonly selectors = new Map<string, SelectorCounts>();

  constructor(
    private readonly opts: SpreadOptions,
    private readonly lister: Required<Pick<NodeInfoLister, 'list' | 'podChangeLog'>>,
  ) {}

  /** The counts for a selector; undefined when it cannot be remembered (counted afresh instead). */
  of(selector: Selector, namespace: string): SelectorCounts | undefined {
    const text = selector.toString();
    // "Everything" and "nothing" both print as ""; they are cheap to count anyway.
    if (text === '') return undefined;
    const key = `${namespace}\u0000${text}`;
    let counts = this.selectors.get(key);
    if (counts === undefined) {
      if (this.selectors.size >= MAX_REMEMBERED_SELECTORS) this.selectors.clear();
      counts = new SelectorCounts(selector, namespace, this.opts, this.lister);
      this.selectors.set(key, counts);
    }
    return counts;
  }
}
