/** Attach-limit helpers shared by the CSI and in-tree volume limit filters (upstream nodevolumelimits/utils.go). */
import type { CSINode, PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import type { NodeInfo } from '../../types';
import { ephemeralClaimOwnershipError, namespaceOf } from '../volumebinding/pv-helpers';

export const ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED = 'node(s) exceed max volume count';
export const ATTACHABLE_VOLUMES_PREFIX = 'attachable-volumes-';
export const CSI_ATTACH_LIMIT_PREFIX = 'attachable-volumes-csi-';
export const MIGRATED_PLUGINS_ANNOTATION = 'storage.alpha.kubernetes.io/migrated-plugins';

export const IN_TREE_PLUGIN = {
  awsEBS: 'kubernetes.io/aws-ebs',
  gcePD: 'kubernetes.io/gce-pd',
  azureDisk: 'kubernetes.io/azure-disk',
  cinder: 'kubernetes.io/cinder',
} as const;

/**
 * Resource key of a CSI driver's limit. Upstream hashes driver names that would make the key
 * 63 characters or longer; such names are used as they are here (documented deviation).
 */
export function csiAttachLimitKey(driver: string): string {
  // By driver first: the driver names come from the objects, whose strings hash once.
  let key = keysByDriver.get(driver);
  if (key === undefined) keysByDriver.set(driver, (key = internLimitKey(CSI_ATTACH_LIMIT_PREFIX + driver)));
  return key;
}

const keysByDriver = new Map<string, string>();
const limitKeys = new Map<string, string>();

/**
 * One string object per limit key, whether built from a driver name or read from the node:
 * CSILimits' Filter looks keys up in per-node maps hundreds of thousands of times, and equal
 * but distinct strings are compared character by character, the same object by identity.
 */
export function internLimitKey(key: string): string {
  let k = limitKeys.get(key);
  if (k === undefined) limitKeys.set(key, (k = key));
  return k;
}

/** Node allocatable `attachable-volumes-*` limits (upstream volumeLimits). */
export function allocatableVolumeLimits(nodeInfo: NodeInfo): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of nodeInfo.allocatable.scalar)
    if (k.startsWith(ATTACHABLE_VOLUMES_PREFIX)) out.set(internLimitKey(k), v);
  return out;
}

/**
 * Is CSI migration on for an in-tree plugin on this node? The migration gates of AWS EBS, GCE PD and
 * Azure Disk are GA (locked on) from 1.26; the node must also list the plugin in its CSINode annotation.
 */
export function isCSIMigrationOn(csiNode: CSINode | undefined, pluginName: string): boolean {
  if (!csiNode || !pluginName) return false;
  if (!(Object.values(IN_TREE_PLUGIN) as string[]).includes(pluginName)) return false;
  const ann = csiNode.metadata?.annotations?.[MIGRATED_PLUGINS_ANNOTATION];
  if (!ann) return false;
  return ann.split(',').includes(pluginName);
}

/**
 * The claim a pod's claim volume uses, as both attach-limit filters look it up. Throws what
 * upstream returns as an error: a claim without a name, a missing claim of the incoming pod
 * (`newPod`), an ephemeral claim the pod does not own; a missing claim of a pod already on a node
 * is skipped (undefined).
 */
export function claimForLimits(
  objects: ClusterObjects,
  pod: Pod,
  ref: { name: string; ephemeral: boolean },
  newPod: boolean,
): PersistentVolumeClaim | undefined {
  if (!ref.name) throw new Error('PersistentVolumeClaim had no name');
  const ns = namespaceOf(pod);
  const pvc = objects.persistentVolumeClaims.get(ns, ref.name);
  if (!pvc) {
    if (newPod)
      throw new Error(`looking up PVC ${ns}/${ref.name}: persistentvolumeclaim "${ref.name}" not found`);
    return undefined;
  }
  if (ref.ephemeral) {
    const err = ephemeralClaimOwnershipError(pod, pvc);
    if (err) throw new Error(err);
  }
  return pvc;
}
