/**
 * The scheduler's volume binder (upstream volumebinding/binder.go), over the simulation's cluster
 * objects: sorts a pod's claims into bound / to bind / unbound Immediate, and decides per node
 * which claims bind to existing PVs and which get provisioned.
 */
import type {
  CSIStorageCapacity,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import {
  ANN_SELECTED_NODE,
  NOT_SUPPORTED_PROVISIONER,
  claimClass,
  claimNameOfVolume,
  claimRequestBytes,
  ephemeralClaimOwnershipError,
  findMatchingCandidate,
  type VolumeCandidate,
  volumeCandidates,
  isClaimFullyBound,
  isDelayBinding,
  matchTopologySelectorTerms,
  namespaceOf,
  pvNodeAffinityMatches,
  storageBytes,
  volumeClass,
} from './pv-helpers';
import { selectorFromLabelSelector } from '@schedlab/k8s';

export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
/** The same conflict as worded from 1.33. */
export const ERR_REASON_PV_NODE_AFFINITY = "node(s) didn't match PersistentVolume's node affinity";
export const ERR_REASON_NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';
export const ERR_REASON_PV_NOT_EXIST =
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

/** A claim that will bind to an existing PV. */
export interface StaticBinding {
  pv: PersistentVolume;
  pvc: PersistentVolumeClaim;
}

/** What Filter decided for one node (upstream PodVolumes). */
export interface PodVolumes {
  staticBindings: StaticBinding[];
  dynamicProvisions: PersistentVolumeClaim[];
  /**
   * Per dynamic provision (same index), the CSIStorageCapacity that held it (upstream
   * DynamicProvision.NodeCapacity); undefined when no capacity check applied.
   */
  nodeCapacities?: (CSIStorageCapacity | undefined)[];
}

/** A pod's claims sorted by binding state (upstream GetPodVolumes), plus candidate PVs per class. */
export interface PodVolumeClaims {
  boundClaims: PersistentVolumeClaim[];
  claimsToBind: PersistentVolumeClaim[];
  unboundClaimsImmediate: PersistentVolumeClaim[];
  /** class → PVs of that class sorted by name (upstream lists them per attempt from its PV cache). */
  volumesByClass: Map<string, PersistentVolume[]>;
  /** Per claim to bind, its node-independent PV candidates (filled on first use in this attempt). */
  candidatesByClaim?: Map<PersistentVolumeClaim, VolumeCandidate[]>;
}

export class VolumeBinderError extends Error {}

export function getPodVolumeClaims(pod: Pod, objects: ClusterObjects): PodVolumeClaims {
  const ns = namespaceOf(pod);
  const out: PodVolumeClaims = {
    boundClaims: [],
    claimsToBind: [],
    unboundClaimsImmediate: [],
    volumesByClass: new Map(),
  };
  const classOf = (name: string): StorageClass | undefined => objects.storageClasses.get(name);
  for (const vol of pod.spec?.volumes ?? []) {
    const ref = claimNameOfVolume(pod, vol);
    if (!ref) continue;
    const pvc = objects.persistentVolumeClaims.get(ns, ref.name);
    if (!pvc)
      throw new VolumeBinderError(
        `error getting PVC "${ns}/${ref.name}": persistentvolumeclaim "${ref.name}" not found`,
      );
    if (ref.ephemeral) {
      const err = ephemeralClaimOwnershipError(pod, pvc);
      if (err) throw new VolumeBinderError(err);
    }
    if (isClaimFullyBound(pvc)) out.boundClaims.push(pvc);
    else if (isDelayBinding(pvc, classOf) && !pvc.spec?.volumeName) out.claimsToBind.push(pvc);
    // A claim pre-bound by volumeName but not yet completed counts as Immediate: the PV controller finishes it.
    else out.unboundClaimsImmediate.push(pvc);
  }
  if (out.claimsToBind.length > 0) {
    const all = objects.persistentVolumes.list();
    for (const pvc of out.claimsToBind) {
      const cls = claimClass(pvc);
      if (out.volumesByClass.has(cls)) continue;
      const pvs = all.filter((pv) => volumeClass(pv) === cls);
      pvs.sort((a, b) => compareStrings(a.metadata?.name ?? '', b.metadata?.name ?? ''));
      out.volumesByClass.set(cls, pvs);
    }
  }
  return out;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Upstream FindPodVolumes for one node. Returns the decisions and the conflict reasons (empty
 * when the node fits); throws VolumeBinderError for what upstream reports as an error.
 */
export function findPodVolumes(
  claims: PodVolumeClaims,
  node: Node,
  objects: ClusterObjects,
): { podVolumes: PodVolumes; reasons: string[] } {
  const podVolumes: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
  let boundSatisfied = true;
  let boundPVsFound = true;
  let unboundSatisfied = true;
  let sufficientStorage = true;
  const nodeName = node.metadata?.name ?? '';
  const labels = node.metadata?.labels;

  const finish = () => {
    const reasons: string[] = [];
    if (!boundSatisfied) reasons.push(ERR_REASON_NODE_CONFLICT);
    if (!unboundSatisfied) reasons.push(ERR_REASON_BIND_CONFLICT);
    if (!sufficientStorage) reasons.push(ERR_REASON_NOT_ENOUGH_SPACE);
    if (!boundPVsFound) reasons.push(ERR_REASON_PV_NOT_EXIST);
    return { podVolumes, reasons };
  };

  // Bound claims: their PV's node affinity must allow the node; the first miss decides.
  for (const pvc of claims.boundClaims) {
    const pv = objects.persistentVolumes.get(pvc.spec?.volumeName ?? '');
    if (!pv) {
      boundPVsFound = false;
      break;
    }
    if (!pvNodeAffinityMatches(pv, labels)) {
      boundSatisfied = false;
      break;
    }
  }

  if (claims.claimsToBind.length > 0) {
    const toMatch: PersistentVolumeClaim[] = [];
    const toProvision: PersistentVolumeClaim[] = [];
    for (const pvc of claims.claimsToBind) {
      const selected = pvc.metadata?.annotations?.[ANN_SELECTED_NODE];
      if (selected !== undefined) {
        if (selected !== nodeName) {
          // Already being provisioned for another node.
          unboundSatisfied = false;
          return finish();
        }
        toProvision.push(pvc);
      } else {
        toMatch.push(pvc);
      }
    }
    if (toMatch.length > 0) {
      // Smallest request first, so small claims do not take the PVs large ones need.
      const ordered = toMatch
        .map((pvc, i) => ({ pvc, i, size: claimRequestBytes(pvc) }))
        .sort((a, b) => a.size - b.size || a.i - b.i);
      const chosen = new Set<string>();
      let allMatched = true;
      for (const { pvc } of ordered) {
        const candidatesByClaim = (claims.candidatesByClaim ??= new Map());
        let candidates = candidatesByClaim.get(pvc);
        if (!candidates) {
          candidates = volumeCandidates(pvc, claims.volumesByClass.get(claimClass(pvc)) ?? []);
          candidatesByClaim.set(pvc, candidates);
        }
        const pv = findMatchingCandidate(candidates, labels, chosen);
        if (!pv) {
          toProvision.push(pvc);
          allMatched = false;
          continue;
        }
        chosen.add(pv.metadata?.name ?? '');
        podVolumes.staticBindings.push({ pv, pvc });
      }
      unboundSatisfied = allMatched;
    }
    if (toProvision.length > 0) {
      const r = checkVolumeProvisions(toProvision, node, objects);
      unboundSatisfied = r.provisionSatisfied;
      sufficientStorage = r.sufficientStorage;
      podVolumes.dynamicProvisions = r.dynamicProvisions;
      podVolumes.nodeCapacities = r.nodeCapacities;
    }
  }
  return finish();
}

/** Upstream checkVolumeProvisions: every leftover claim needs a provisioning class that may serve this node. */
function checkVolumeProvisions(
  claims: PersistentVolumeClaim[],
  node: Node,
  objects: ClusterObjects,
): {
  provisionSatisfied: boolean;
  sufficientStorage: boolean;
  dynamicProvisions: PersistentVolumeClaim[];
  nodeCapacities: (CSIStorageCapacity | undefined)[];
} {
  const dynamicProvisions: PersistentVolumeClaim[] = [];
  const nodeCapacities: (CSIStorageCapacity | undefined)[] = [];
  const none = { dynamicProvisions: [], nodeCapacities: [] };
  for (const pvc of claims) {
    const className = claimClass(pvc);
    const key = `${namespaceOf(pvc)}/${pvc.metadata?.name}`;
    if (!className) throw new VolumeBinderError(`no class for claim "${key}"`);
    const sc = objects.storageClasses.get(className);
    if (!sc) throw new VolumeBinderError(`failed to find storage class "${className}"`);
    const provisioner = sc.provisioner ?? '';
    if (!provisioner || provisioner === NOT_SUPPORTED_PROVISIONER) {
      return { provisionSatisfied: false, sufficientStorage: true, ...none };
    }
    if (!matchTopologySelectorTerms(sc.allowedTopologies, node.metadata?.labels)) {
      return { provisionSatisfied: false, sufficientStorage: true, ...none };
    }
    const [enough, capacity] = hasEnoughCapacity(provisioner, pvc, sc, node, objects);
    if (!enough) {
      return { provisionSatisfied: true, sufficientStorage: false, ...none };
    }
    dynamicProvisions.push(pvc);
    nodeCapacities.push(capacity);
  }
  return { provisionSatisfied: true, sufficientStorage: true, dynamicProvisions, nodeCapacities };
}

/**
 * Storage capacity tracking: only for CSI drivers with storageCapacity: true, some
 * CSIStorageCapacity of the class reachable from the node must hold the request. Returns the
 * first that does (upstream lists them in informer order, which is not defined when several
 * match one node and class; Schedlab takes input order).
 */
function hasEnoughCapacity(
  provisioner: string,
  pvc: PersistentVolumeClaim,
  sc: StorageClass,
  node: Node,
  objects: ClusterObjects,
): [boolean, CSIStorageCapacity | undefined] {
  const request = pvc.spec?.resources?.requests?.storage;
  if (request === undefined) return [true, undefined];
  const driver = objects.csiDrivers.get(provisioner);
  if (!driver || driver.spec?.storageCapacity !== true) return [true, undefined];
  const size = storageBytes(request as string);
  for (const cap of objects.csiStorageCapacities.list()) {
    if (cap.storageClassName !== sc.metadata?.name) continue;
    // maximumVolumeSize, when given, is the more precise limit.
    const limit = cap.maximumVolumeSize ?? cap.capacity;
    if (limit === undefined || storageBytes(limit as string) < size) continue;
    if (!cap.nodeTopology) continue;
    if (selectorFromLabelSelector(cap.nodeTopology).matches(node.metadata?.labels)) return [true, cap];
  }
  return [false, undefined];
}
