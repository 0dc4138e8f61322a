/**
 * Turns the objects of a cluster dump into the simulation's state, applying what the API server
 * would have applied on creation: v1 defaulting, Priority admission and DefaultStorageClass
 * admission. Pods with spec.nodeName run on that node; the others are pending.
 */
import {
  KubeObject,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PriorityClass,
  StorageClass,
  admitPriorityInPlace,
  defaultObject,
} from '@schedlab/k8s';
import { ClusterObjects, ClusterStore, NamespacedStore } from '../backend/cache/cluster-objects';
import { syncPodClaims } from '../framework/plugins/dynamicresources/claim-templates';
import type { FeatureSet } from '../features';

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';

export interface ClusterState {
  nodes: Node[];
  /** Pods bound to a node of the dump. */
  runningPods: Pod[];
  /** Pods without spec.nodeName, in input order. */
  pendingPods: Pod[];
  /** Pods naming a node the dump does not contain: not scheduled, reported. */
  orphanPods: Pod[];
  objects: ClusterObjects;
  /** Objects of kinds the simulation does not model (e.g. workloads before the controllers exist). */
  unmodelled: KubeObject[];
}

export function isDefaultStorageClass(sc: StorageClass): boolean {
  const a = sc.metadata?.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

/** Upstream admission picks the newest default class when several are marked; ties by name. */
function defaultStorageClassName(classes: StorageClass[]): string | undefined {
  const defaults = classes.filter(isDefaultStorageClass);
  defaults.sort((a, b) => {
    const ta = a.metadata?.creationTimestamp ?? '';
    const tb = b.metadata?.creationTimestamp ?? '';
    if (ta !== tb) return ta > tb ? -1 : 1;
    return (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1;
  });
  return defaults[0]?.metadata?.name;
}

function admitClaim(pvc: PersistentVolumeClaim, defaultClass: string | undefined): PersistentVolumeClaim {
  // Only a missing field gets the default; an explicit "" means "no class".
  if (pvc.spec && pvc.spec.storageClassName === undefined && defaultClass !== undefined) {
    return { ...pvc, spec: { ...pvc.spec, storageClassName: defaultClass } };
  }
  return pvc;
}

export interface BuildClusterOptions {
  /** The release whose controllers run before the scheduler (default: the newest). */
  features?: FeatureSet;
}

export function buildClusterState(
  items: readonly KubeObject[],
  options: BuildClusterOptions = {},
): ClusterState {
  const objects = new ClusterObjects();
  const nodes: Node[] = [];
  const pods: Pod[] = [];
  const claims: PersistentVolumeClaim[] = [];
  const unmodelled: KubeObject[] = [];
  for (const raw of items) {
    const obj = defaultObject(raw as KubeObject & { kind: string });
    switch (obj.kind) {
      case 'Node':
        nodes.push(obj as unknown as Node);
        break;
      case 'Pod':
        pods.push(obj as unknown as Pod);
        break;
      case 'PriorityClass':
        objects.priorityClasses.set(obj as unknown as PriorityClass);
        break;
      case 'PersistentVolumeClaim':
        claims.push(obj as unknown as PersistentVolumeClaim);
        break;
      case 'PersistentVolume':
        objects.persistentVolumes.set(obj as never);
        break;
      case 'StorageClass':
        objects.storageClasses.set(obj as never);
        break;
      case 'Namespace':
        objects.namespaces.set(obj as never);
        break;
      case 'Service':
        objects.services.set(obj as never);
        break;
      case 'ReplicaSet':
        objects.replicaSets.set(obj as never);
        break;
      case 'ReplicationController':
        objects.replicationControllers.set(obj as never);
        break;
      case 'StatefulSet':
        objects.statefulSets.set(obj as never);
        break;
      case 'PodDisruptionBudget':
        objects.podDisruptionBudgets.set(obj as never);
        break;
      case 'CSINode':
        objects.csiNodes.set(obj as never);
        break;
      case 'CSIDriver':
        objects.csiDrivers.set(obj as never);
        break;
      case 'CSIStorageCapacity':
        objects.csiStorageCapacities.set(obj as never);
        break;
      case 'ResourceClaim':
        objects.resourceClaims.set(obj as never);
        break;
      case 'ResourceClaimTemplate':
        objects.resourceClaimTemplates.set(obj as never);
        break;
      case 'DeviceClass':
        objects.deviceClasses.set(obj as never);
        break;
      case 'ResourceSlice':
        objects.resourceSlices.set(obj as never);
        break;
      case 'DeviceTaintRule':
        objects.deviceTaintRules.set(obj as never);
        break;
      default:
        unmodelled.push(obj as KubeObject);
    }
  }
  const defaultClass = defaultStorageClassName(objects.storageClasses.list());
  for (const c of claims) objects.persistentVolumeClaims.set(admitClaim(c, defaultClass));

  const classes = objects.priorityClasses.list();
  const claimController = {
    checksEveryEntry: options.features?.behaviour.draClaimControllerChecksEveryEntry ?? true,
  };
  const nodeNames = new Set(nodes.map((n) => n.metadata?.name));
  const runningPods: Pod[] = [];
  const pendingPods: Pod[] = [];
  const orphanPods: Pod[] = [];
  for (const p of pods) {
    // defaultObject gave this function its own copy of every pod. The resourceclaim controller
    // generates claims from templates before the scheduler sees the pod.
    const admitted = syncPodClaims(admitPriorityInPlace(p, classes), objects, claimController);
    const nodeName = admitted.spec?.nodeName;
    if (!nodeName) pendingPods.push(admitted);
    else if (nodeNames.has(nodeName)) runningPods.push(admitted);
    else orphanPods.push(admitted);
  }
  return { nodes, runningPods, pendingPods, orphanPods, objects, unmodelled };
}

/**
 * What buildClusterState returns for the items `state` was built from once their PVs and PVCs
 * are replaced by those of `settled` (objects made by `state.objects.withOwnStorage()`, which
 * the PV controller changed), without building the nodes and pods again. `settled`'s PV and PVC
 * stores are taken over. Objects taken from `state` were defaulted and admitted already, and so
 * is, in effect, a copy of one that differs only in a status with a phase (what the controller's
 * phase changes write): defaulting fills spec, metadata.namespace and an empty status.phase,
 * admission spec.storageClassName. Any other object is defaulted and admitted here as
 * buildClusterState would, in its place.
 */
export function withStorageObjects(state: ClusterState, settled: ClusterObjects): ClusterState {
  const before = state.objects;
  const volumes = settled.persistentVolumes;
  const claims = settled.persistentVolumeClaims;
  const defaultClass = defaultStorageClassName(before.storageClasses.list());
  // Settled object → what buildClusterState makes of it, for those not kept as they are.
  const redoneVolumes = new Map<PersistentVolume, PersistentVolume>();
  const redoneClaims = new Map<PersistentVolumeClaim, PersistentVolumeClaim>();
  // Defaulting gives a claim with an empty namespace "default", so another key.
  let keyChanged = false;
  for (const [key, pv] of volumes.entries()) {
    if (settledCopy(pv, before.persistentVolumes.get(key))) continue;
    const done = defaultObject(pv as never) as unknown as PersistentVolume;
    redoneVolumes.set(pv, done);
    keyChanged ||= (done.metadata?.name ?? '') !== key;
  }
  for (const [key, c] of claims.entries()) {
    if (settledCopy(c, before.persistentVolumeClaims.getByKey(key))) continue;
    const done = admitClaim(defaultObject(c as never) as unknown as PersistentVolumeClaim, defaultClass);
    redoneClaims.set(c, done);
    keyChanged ||= `${done.metadata?.namespace ?? 'default'}/${done.metadata?.name ?? ''}` !== key;
  }
  if (keyChanged) {
    // Rebuilt in order, as buildClusterState would.
    const fresh = before.withOwnStorage(new ClusterStore(), new NamespacedStore());
    for (const pv of volumes.list()) fresh.persistentVolumes.set(redoneVolumes.get(pv) ?? pv);
    for (const c of claims.list()) fresh.persistentVolumeClaims.set(redoneClaims.get(c) ?? c);
    return { ...state, objects: fresh };
  }
  // Same keys: each replaced in its place.
  for (const done of redoneVolumes.values()) volumes.set(done);
  for (const done of redoneClaims.values()) claims.set(done);
  return { ...state, objects: before.withOwnStorage(volumes, claims) };
}

/** `obj` is `prior` (defaulted and admitted), or a copy of it with only a phased status new. */
function settledCopy(obj: object, prior: object | undefined): boolean {
  if (obj === prior) return true;
  if (prior === undefined) return false;
  const status = (obj as { status?: { phase?: unknown } }).status;
  if (typeof status?.phase !== 'string' || status.phase === '') return false;
  const keys = Object.keys(obj);
  if (keys.length !== Object.keys(prior).length) return false;
  for (const key of keys) {
    if (key !== 'status' && (obj as Record<string, unknown>)[key] !== (prior as Record<string, unknown>)[key])
      return false;
  }
  return true;
}
