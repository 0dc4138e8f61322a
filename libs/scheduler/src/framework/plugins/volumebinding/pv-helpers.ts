/**
 * PV/PVC predicates shared by the volume plugins (upstream component-helpers/storage/volume and
 * the scheduler's volume helpers): claim classes, binding state, PV matching for a claim.
 */
import {
  compileNodeSelector,
  parseQuantity,
  selectorFromLabelSelector,
  type Labels,
  type Node,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
} from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { TopologySelectorTerm } from 'kubernetes-types/core/v1';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
/** The beta annotation that still takes precedence over spec.storageClassName. */
export const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';
export const BINDING_MODE_WAIT_FOR_FIRST_CONSUMER = 'WaitForFirstConsumer';

export function namespaceOf(obj: { metadata?: { namespace?: string } }): string {
  return obj.metadata?.namespace || 'default';
}

export function claimKey(pvc: PersistentVolumeClaim): string {
  return `${namespaceOf(pvc)}/${pvc.metadata?.name ?? ''}`;
}

/** The claim's uid; claims given without one get `uid-pvc-<namespace>-<name>` (the replay's convention). */
export function claimUid(pvc: PersistentVolumeClaim): string {
  return pvc.metadata?.uid || `uid-pvc-${namespaceOf(pvc)}-${pvc.metadata?.name ?? ''}`;
}

/** Name of the claim a pod volume refers to: a PVC volume's claimName, or `<pod>-<volume>` for a generic ephemeral volume. */
export function claimNameOfVolume(pod: Pod, vol: Volume): { name: string; ephemeral: boolean } | undefined {
  if (vol.persistentVolumeClaim) return { name: vol.persistentVolumeClaim.claimName, ephemeral: false };
  if (vol.ephemeral) return { name: `${pod.metadata?.name ?? ''}-${vol.name}`, ephemeral: true };
  return undefined;
}

/** Upstream ephemeral.VolumeIsForPod: an ephemeral volume's claim must be controlled by the pod. */
export function ephemeralClaimOwnershipError(pod: Pod, pvc: PersistentVolumeClaim): string | undefined {
  const owned = (pvc.metadata?.ownerReferences ?? []).some(
    (o) => o.controller === true && o.uid === (pod.metadata?.uid ?? ''),
  );
  if (namespaceOf(pvc) !== namespaceOf(pod) || !owned) {
    return `PVC ${namespaceOf(pvc)}/${pvc.metadata?.name} was not created for pod ${namespaceOf(pod)}/${pod.metadata?.name} (pod is not owner)`;
  }
  return undefined;
}

export function notFoundMessage(resource: string, name: string): string {
  return `${resource} "${name}" not found`;
}

/** Class of a claim: the beta annotation wins over spec.storageClassName; "" means no class. */
export function claimClass(pvc: PersistentVolumeClaim): string {
  const ann = pvc.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (ann !== undefined) return ann;
  return pvc.spec?.storageClassName ?? '';
}

export function volumeClass(pv: PersistentVolume): string {
  const ann = pv.metadata?.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (ann !== undefined) return ann;
  return pv.spec?.storageClassName ?? '';
}

/** A claim is fully bound once it names its volume and the PV controller marked the binding complete. */
export function isClaimFullyBound(pvc: PersistentVolumeClaim): boolean {
  return !!pvc.spec?.volumeName && pvc.metadata?.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

/** A class missing from the cluster, and no class at all, behave as Immediate binding (upstream IsDelayBindingMode). */
export function isDelayBinding(
  pvc: PersistentVolumeClaim,
  classOf: (name: string) => StorageClass | undefined,
): boolean {
  const name = claimClass(pvc);
  if (!name) return false;
  const sc = classOf(name);
  if (!sc) return false;
  return (sc.volumeBindingMode ?? 'Immediate') === BINDING_MODE_WAIT_FOR_FIRST_CONSUMER;
}

/** Upstream IsVolumeBoundToClaim: claimRef names the claim, and its uid (if set) is the claim's. */
export function isVolumeBoundToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== pvc.metadata?.name || (ref.namespace || 'default') !== namespaceOf(pvc)) return false;
  return !ref.uid || ref.uid === claimUid(pvc);
}

/** Bytes of a quantity string; absent counts as 0. */
export function storageBytes(q: string | number | undefined): number {
  if (q === undefined) return 0;
  return parseQuantity(q).value();
}

export function claimRequestBytes(pvc: PersistentVolumeClaim): number {
  return storageBytes(pvc.spec?.resources?.requests?.storage as string | undefined);
}

export function volumeCapacityBytes(pv: PersistentVolume): number {
  return storageBytes(pv.spec?.capacity?.storage as string | undefined);
}

/** Every access mode the claim asks for must be offered by the PV. */
export function accessModesSatisfied(pvc: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  const offered = pv.spec?.accessModes ?? [];
  return (pvc.spec?.accessModes ?? []).every((m) => offered.includes(m));
}

export function volumeModeMismatch(pvc: PersistentVolumeClaim, pv: PersistentVolume): boolean {
  return (pvc.spec?.volumeMode || 'Filesystem') !== (pv.spec?.volumeMode || 'Filesystem');
}

const nodeAffinityCache = new WeakMap<object, ReturnType<typeof compileNodeSelector>>();

/**
 * Upstream CheckNodeAffinity: the PV's required node affinity must match a node that has only
 * the given labels (so matchFields on metadata.name never match).
 */
export function pvNodeAffinityMatches(pv: PersistentVolume, nodeLabels: Labels | undefined): boolean {
  const required = pv.spec?.nodeAffinity?.required;
  if (!required) return true;
  let compiled = nodeAffinityCache.get(required);
  if (!compiled) {
    compiled = compileNodeSelector(required);
    nodeAffinityCache.set(required, compiled);
  }
  return compiled.match({ metadata: { labels: nodeLabels ?? {} } } as Node);
}

/** Upstream MatchTopologySelectorTerms: no terms match everything; otherwise any term whose every expression matches. */
export function matchTopologySelectorTerms(
  terms: TopologySelectorTerm[] | undefined,
  labels: Labels | undefined,
): boolean {
  if (!terms || terms.length === 0) return true;
  const l = labels ?? {};
  return terms.some((t) =>
    (t.matchLabelExpressions ?? []).every((e) => e.key in l && (e.values ?? []).includes(l[e.key])),
  );
}

/**
 * Upstream FindMatchingVolume on the scheduler path (node given, delay binding): a PV pre-bound to
 * the claim wins (or nothing, if its node affinity rejects the node); otherwise the smallest
 * Available PV of the claim's class with enough capacity, matching volume mode, selector, node
 * affinity and access modes. `volumes` must be sorted by name, so equal capacities resolve to the
 * smallest name.
 */
export function findMatchingVolume(
  pvc: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  nodeLabels: Labels | undefined,
  excluded: ReadonlySet<string>,
): PersistentVolume | undefined {
  return findMatchingCandidate(volumeCandidates(pvc, volumes), nodeLabels, excluded);
}

/** A PV the claim could take on some node, and whether it is pre-bound to the claim. */
export interface VolumeCandidate {
  pv: PersistentVolume;
  name: string;
  boundToClaim: boolean;
  capacity: number;
}

/**
 * The part of FindMatchingVolume that does not depend on the node, done once per claim and
 * attempt: every PV a node could still pick (in the given order). A PV dropped here would be
 * skipped on every node, so the per-node search over candidates picks exactly the same PV.
 */
export function volumeCandidates(
  pvc: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
): VolumeCandidate[] {
  const requested = claimRequestBytes(pvc);
  const requestedClass = claimClass(pvc);
  const selector = pvc.spec?.selector ? selectorFromLabelSelector(pvc.spec.selector) : undefined;
  const out: VolumeCandidate[] = [];
  for (const pv of volumes) {
    const boundToClaim = isVolumeBoundToClaim(pv, pvc);
    if (pv.spec?.claimRef && !boundToClaim) continue;
    const capacity = volumeCapacityBytes(pv);
    if (capacity < requested) continue;
    if (volumeModeMismatch(pvc, pv)) continue;
    if (pv.metadata?.deletionTimestamp) continue;
    if (!boundToClaim) {
      if ((pv.status?.phase ?? 'Pending') !== 'Available') continue;
      if (selector && !selector.matches(pv.metadata?.labels)) continue;
      if (volumeClass(pv) !== requestedClass) continue;
      if (!accessModesSatisfied(pvc, pv)) continue;
    }
    out.push({ pv, name: pv.metadata?.name ?? '', boundToClaim, capacity });
  }
  return out;
}

/** The node-dependent rest of FindMatchingVolume over the claim's candidates. */
export function findMatchingCandidate(
  candidates: readonly VolumeCandidate[],
  nodeLabels: Labels | undefined,
  excluded: ReadonlySet<string>,
): PersistentVolume | undefined {
  let smallest: VolumeCandidate | undefined;
  for (const c of candidates) {
    if (excluded.has(c.name)) continue;
    const affinityOk = pvNodeAffinityMatches(c.pv, nodeLabels);
    if (c.boundToClaim) return affinityOk ? c.pv : undefined;
    if (!affinityOk) continue;
    if (smallest === undefined || smallest.capacity > c.capacity) smallest = c;
  }
  return smallest?.pv;
}
