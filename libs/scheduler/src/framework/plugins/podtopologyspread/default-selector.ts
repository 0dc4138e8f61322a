/**
 * The selector default spread constraints use for a pod (upstream helper.DefaultSelector): the
 * label requirements of every Service in the pod's namespace that selects it, ANDed with the
 * selector of the ReplicationController, ReplicaSet or StatefulSet that controls it.
 */
import { isNothing, mergeSelectorsAnd, selectorFromLabelSelector, selectorFromSet } from '@schedlab/k8s';
import type { Labels, LabelSelector, OwnerReference, Pod, Selector } from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';

/** metav1.GetControllerOf: the first owner reference marked as the controller. */
function controllerOf(pod: Pod): OwnerReference | undefined {
  return pod.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** Requirements of a workload's LabelSelector; an invalid or nil selector contributes none. */
function workloadSelector(sel: LabelSelector | undefined): Selector | undefined {
  let s: Selector;
  try {
    s = selectorFromLabelSelector(sel ?? null);
  } catch {
    return undefined;
  }
  return isNothing(s) ? undefined : s;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** selectorFromSet(sel).matches(labels) without building the selector (every Service, every pod). */
function selectsLabels(sel: Labels, labels: Labels | undefined): boolean {
  for (const key in sel) {
    if (!hasOwn.call(sel, key)) continue;
    if (labels === undefined || !hasOwn.call(labels, key) || labels[key] !== sel[key]) return false;
  }
  return true;
}

/**
 * The Services' selectors, each filed under one of its label pairs: a selector can only select a
 * pod that has that pair, so a pod's own labels name every selector worth trying.
 */
interface ServiceSelectorIndex {
  revision: number;
  /** namespace → label key → value → the selectors filed under that pair. */
  byNamespace: Map<string, Map<string, Map<string, Labels[]>>>;
}

/** Per Service store, rebuilt when a Service is set or deleted (the store's revision). */
const serviceIndexes = new WeakMap<ClusterObjects['services'], ServiceSelectorIndex>();

function serviceSelectorIndex(services: ClusterObjects['services']): ServiceSelectorIndex {
  const known = serviceIndexes.get(services);
  if (known !== undefined && known.revision === services.revision) return known;
  const index: ServiceSelectorIndex = { revision: services.revision, byNamespace: new Map() };
  for (const svc of services.list()) {
    const sel = svc.spec?.selector;
    // A Service without a selector selects nothing (not everything).
    if (sel == null) continue;
    const key = Object.keys(sel)[0];
    // An empty selector selects every pod but adds no label to the merged set.
    if (key === undefined) continue;
    const namespace = svc.metadata?.namespace ?? 'default';
    let byKey = index.byNamespace.get(namespace);
    if (byKey === undefined) index.byNamespace.set(namespace, (byKey = new Map()));
    let byValue = byKey.get(key);
    if (byValue === undefined) byKey.set(key, (byValue = new Map()));
    const filed = byValue.get(sel[key]);
    if (filed === undefined) byValue.set(sel[key], [sel]);
    else filed.push(sel);
  }
  serviceIndexes.set(services, index);
  return index;
}

/**
 * Merged selectors already built, per controlling ReplicaSet or StatefulSet object (a changed one
 * is a new object) and per Services' label set: the replicas of a workload share both, and
 * building the merged selector (the workload's selector checked and compiled, the two sorted and
 * compiled together) was ~25 µs a pod. Each label set's merge is kept, undefined included.
 */
const mergedSelectors = new WeakMap<object, Map<string, Selector | undefined>>();
/** Label sets remembered per workload before its entries start over (pods with unique labels). */
const MAX_LABEL_SETS_PER_WORKLOAD = 64;

function mergedWithWorkload(
  labelSet: Labels,
  workload: { spec?: { selector?: LabelSelector } },
): Selector | undefined {
  let byLabels = mergedSelectors.get(workload);
  if (byLabels === undefined) mergedSelectors.set(workload, (byLabels = new Map()));
  // Label keys and values hold no NUL: the key names the set whatever order it was filled in.
  const key = Object.keys(labelSet)
    .sort()
    .map((k) => `${k}\u0000${labelSet[k]}`)
    .join('\u0000');
  if (byLabels.has(key)) return byLabels.get(key);
  const extra = workloadSelector(workload.spec?.selector);
  const merged = extra ? mergeSelectorsAnd([selectorFromSet(labelSet), extra]) : undefined;
  if (byLabels.size >= MAX_LABEL_SETS_PER_WORKLOAD) byLabels.clear();
  byLabels.set(key, merged);
  return merged;
}

export function defaultSelector(pod: Pod, objects: ClusterObjects): Selector {
  const namespace = pod.metadata?.namespace ?? 'default';
  const podLabels = pod.metadata?.labels;
  // Everything that selects the pod agrees on the labels it names, so merging maps is safe (and
  // the order they are merged in does not matter).
  const labelSet: Labels = {};
  const byKey = serviceSelectorIndex(objects.services).byNamespace.get(namespace);
  if (byKey !== undefined && podLabels !== undefined) {
    for (const key of Object.keys(podLabels)) {
      const filed = byKey.get(key)?.get(podLabels[key]);
      if (filed === undefined) continue;
      for (const sel of filed) if (selectsLabels(sel, podLabels)) Object.assign(labelSet, sel);
    }
  }

  const owner = controllerOf(pod);
  if (!owner) return selectorFromSet(labelSet);
  const apiVersion = owner.apiVersion ?? '';
  if (owner.kind === 'ReplicationController' && apiVersion === 'v1') {
    const rc = objects.replicationControllers.get(namespace, owner.name);
    if (rc) Object.assign(labelSet, rc.spec?.selector ?? {});
    return selectorFromSet(labelSet);
  }
  if (apiVersion === 'apps/v1' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const workload =
      owner.kind === 'ReplicaSet'
        ? objects.replicaSets.get(namespace, owner.name)
        : objects.statefulSets.get(namespace, owner.name);
    const merged = workload ? mergedWithWorkload(labelSet, workload) : undefined;
    if (merged) return merged;
  }
  return selectorFromSet(labelSet);
}
