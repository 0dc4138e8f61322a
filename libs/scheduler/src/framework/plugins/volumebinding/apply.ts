/**
 * What happens to PVs and PVCs once a pod with volumes to bind is bound: the API writes of
 * VolumeBinding's PreBind together with what the PV controller and an external CSI provisioner
 * then finish (the replay rule of the storage conformance family). The simulation applies this
 * at once, before the next pod is scheduled.
 */
import type { Node, PersistentVolume, PersistentVolumeClaim } from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import {
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  claimClass,
  claimKey,
  claimUid,
  isVolumeBoundToClaim,
  namespaceOf,
} from './pv-helpers';

/** The decisions VolumeBinding's Reserve assumed for the chosen node. */
export interface VolumeBindingDecisions {
  node: Node;
  /** Claims to bind to existing PVs. */
  staticBindings: { claimNamespace: string; claimName: string; pvName: string }[];
  /** Claims to provision on the node. */
  dynamicProvisions: { claimNamespace: string; claimName: string }[];
}

/** In the conformance format: absent keys for empty parts; selectedNode only when something was provisioned. */
export interface VolumeBindingResult {
  staticBindings?: Record<string, string>;
  provisioned?: Record<string, string>;
  selectedNode?: string;
}

function claimRefOf(pvc: PersistentVolumeClaim) {
  return {
    kind: 'PersistentVolumeClaim',
    apiVersion: 'v1',
    namespace: namespaceOf(pvc),
    name: pvc.metadata?.name ?? '',
    uid: claimUid(pvc),
  };
}

/** The PV controller's side of a completed binding, on a copy of the claim. */
function boundClaim(pvc: PersistentVolumeClaim, pv: PersistentVolume): PersistentVolumeClaim {
  const copy = structuredCopy(pvc);
  copy.metadata = copy.metadata ?? {};
  copy.metadata.annotations = {
    ...copy.metadata.annotations,
    [ANN_BIND_COMPLETED]: 'yes',
    [ANN_BOUND_BY_CONTROLLER]: 'yes',
  };
  copy.spec = { ...copy.spec, volumeName: pv.metadata?.name };
  (copy as { status?: PersistentVolumeClaim['status'] }).status = {
    ...copy.status,
    phase: 'Bound',
    accessModes: [...(pv.spec?.accessModes ?? [])],
    capacity: { ...(pv.spec?.capacity ?? {}) },
  };
  return copy;
}

function structuredCopy<T>(o: T): T {
  return JSON.parse(JSON.stringify(o)) as T;
}

/**
 * Applies a pod's volume decisions to the cluster objects (replacing the PV/PVC objects with
 * updated copies; earlier references stay unchanged) and reports them. Returns undefined when
 * there was nothing to bind. Idempotent for claims that are already bound.
 */
export function applyVolumeBindings(
  objects: ClusterObjects,
  decisions: VolumeBindingDecisions | undefined,
): VolumeBindingResult | undefined {
  if (!decisions) return undefined;
  const nodeName = decisions.node.metadata?.name ?? '';
  const nodeLabels = decisions.node.metadata?.labels ?? {};
  const staticBindings: Record<string, string> = {};
  const provisioned: Record<string, string> = {};

  for (const b of decisions.staticBindings) {
    const pvc = objects.persistentVolumeClaims.get(b.claimNamespace, b.claimName);
    const pv = objects.persistentVolumes.get(b.pvName);
    if (!pvc || !pv)
      throw new Error(`volume binding: ${b.claimNamespace}/${b.claimName} → ${b.pvName}: object missing`);
    const newPV = structuredCopy(pv);
    newPV.metadata = newPV.metadata ?? {};
    // Upstream marks the PV bound-by-controller only when the user had not pre-bound it to this claim.
    if (
      !isVolumeBoundToClaim(pv, pvc) &&
      newPV.metadata.annotations?.[ANN_BOUND_BY_CONTROLLER] === undefined
    ) {
      newPV.metadata.annotations = { ...newPV.metadata.annotations, [ANN_BOUND_BY_CONTROLLER]: 'yes' };
    }
    newPV.spec = { ...newPV.spec, claimRef: claimRefOf(pvc) };
    (newPV as { status?: PersistentVolume['status'] }).status = { ...newPV.status, phase: 'Bound' };
    objects.persistentVolumes.set(newPV);
    objects.persistentVolumeClaims.set(boundClaim(pvc, newPV));
    staticBindings[claimKey(pvc)] = b.pvName;
  }

  for (const p of decisions.dynamicProvisions) {
    const pvc = objects.persistentVolumeClaims.get(p.claimNamespace, p.claimName);
    if (!pvc) throw new Error(`volume binding: claim ${p.claimNamespace}/${p.claimName} missing`);
    const className = claimClass(pvc);
    const sc = objects.storageClasses.get(className);
    if (!sc) throw new Error(`volume binding: storage class "${className}" missing`);
    const driver = sc.provisioner ?? '';
    const pvName = `pvc-${claimUid(pvc)}`;
    // The CSI provisioner pins the volume to the node's values of the driver's topology keys.
    const topologyKeys =
      objects.csiNodes.get(nodeName)?.spec?.drivers?.find((d) => d.name === driver)?.topologyKeys ?? [];
    // Own keys only: a key "constructor" the node lacks is not Object.prototype's.
    const matchExpressions = topologyKeys
      .filter((k) => Object.hasOwn(nodeLabels, k))
      .map((k) => ({ key: k, operator: 'In', values: [nodeLabels[k]] }));
    const pv: PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: pvName },
      spec: {
        capacity: { storage: pvc.spec?.resources?.requests?.storage ?? '0' },
        accessModes: [...(pvc.spec?.accessModes ?? [])],
        volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
        storageClassName: className,
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        csi: { driver, volumeHandle: pvName },
        claimRef: claimRefOf(pvc),
        ...(matchExpressions.length > 0
          ? { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions }] } } }
          : {}),
      },
      status: { phase: 'Bound' },
    };
    objects.persistentVolumes.set(pv);
    const selected = structuredCopy(pvc);
    selected.metadata = selected.metadata ?? {};
    selected.metadata.annotations = { ...selected.metadata.annotations, [ANN_SELECTED_NODE]: nodeName };
    objects.persistentVolumeClaims.set(boundClaim(selected, pv));
    provisioned[claimKey(pvc)] = pvName;
  }

  const result: VolumeBindingResult = {};
  if (Object.keys(staticBindings).length > 0) result.staticBindings = sortedRecord(staticBindings);
  if (Object.keys(provisioned).length > 0) {
    result.provisioned = sortedRecord(provisioned);
    result.selectedNode = nodeName;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** Keys in string order, as the recorded results list them. */
function sortedRecord(r: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) out[k] = r[k];
  return out;
}
