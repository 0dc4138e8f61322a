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
import type { Labels, Node, Pod, RequiredNodeAffinity, Selector, Taint, TopologySpreadConstraint } from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import type { PodInfo } from '../../types';
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

export function nodeHasAllTopologyKeys(labels: Labels | undefined, constraints: readonly SpreadConstraint[]): boolean {
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
    if (findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, doNotScheduleTaint) !== undefined) {
      return false;
    }
  }
  return true;
}

/** matchLabelKeys: the pod's own values for the listed keys are ANDed into the selector. */
function withMatchLabelKeys(selector: Selector, keys: readonly string[], podLabels: Labels, opts: SpreadOptions): Selector {
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
      honorNodeAffinity: opts.nodeInclusionPolicy ? (c.nodeAffinityPolicy ?? NODE_INCLUSION_HONOR) === NODE_INCLUSION_HONOR : true,
      honorNodeTaints: opts.nodeInclusionPolicy ? (c.nodeTaintsPolicy ?? NODE_INCLUSION_IGNORE) === NODE_INCLUSION_HONOR : false,
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

/** Pods on a node in `namespace` that the selector matches; terminating pods do not count. */
export function countMatchingPods(
  pods: readonly PodInfo[],
  selector: Selector,
  namespace: string,
  opts: SpreadOptions,
): number {
  if (opts.emptySelectorCountsNothing && selector.isEmpty()) return 0;
  let count = 0;
  for (let i = 0; i < pods.length; i++) {
    const p = pods[i].pod;
    const meta = p.metadata;
    if (meta?.deletionTimestamp != null || (meta?.namespace ?? 'default') !== namespace) continue;
    if (selector.matches(meta?.labels)) count++;
  }
  return count;
}

export function podNamespace(pod: Pod): string {
  return pod.metadata?.namespace ?? 'default';
}
