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

export function defaultSelector(pod: Pod, objects: ClusterObjects): Selector {
  const namespace = pod.metadata?.namespace ?? 'default';
  const podLabels = pod.metadata?.labels;
  // Everything that selects the pod agrees on the labels it names, so merging maps is safe.
  const labelSet: Labels = {};
  for (const svc of objects.services.list(namespace)) {
    const sel = svc.spec?.selector;
    // A Service without a selector selects nothing (not everything).
    if (sel == null) continue;
    if (selectsLabels(sel, podLabels)) Object.assign(labelSet, sel);
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
    const extra = workload ? workloadSelector(workload.spec?.selector) : undefined;
    if (extra) return mergeSelectorsAnd([selectorFromSet(labelSet), extra]);
  }
  return selectorFromSet(labelSet);
}
