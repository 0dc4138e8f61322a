/** Attach-limit helpers shared by the CSI and in-tree volume limit filters (upstream nodevolumelimits/utils.go). */
import type { CSINode } from '@schedlab/k8s';
import type { NodeInfo } from '../../types';

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
  return CSI_ATTACH_LIMIT_PREFIX + driver;
}

/** Node allocatable `attachable-volumes-*` limits (upstream volumeLimits). */
export function allocatableVolumeLimits(nodeInfo: NodeInfo): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of nodeInfo.allocatable.scalar)
    if (k.startsWith(ATTACHABLE_VOLUMES_PREFIX)) out.set(k, v);
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
