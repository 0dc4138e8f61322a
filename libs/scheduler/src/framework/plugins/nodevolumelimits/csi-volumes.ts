/**
 * What a pod's volumes count against CSI attach limits (upstream CSILimits' filterAttachableVolumes),
 * split in two so the costly part is done once: `resolvePodCSIVolumes` looks claims, PVs and
 * classes up (it depends on the pod and those objects only), `addVolumesOnNode` applies the one
 * node-dependent question, whether the node's CSINode has migrated an in-tree plugin.
 */
import type { CSINode, PersistentVolume, PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import { claimClass, claimNameOfVolume, namespaceOf } from '../volumebinding/pv-helpers';
import { IN_TREE_PLUGIN, claimForLimits, csiAttachLimitKey, isCSIMigrationOn } from './common';

/** Stands in for upstream's random per-plugin prefix of unbound claims' placeholder handles. */
const UNBOUND_CLAIM_PREFIX = 'unbound-claim';

/** In-tree plugin → CSI driver that takes it over when migrated. */
const MIGRATION_DRIVER: Record<string, string> = {
  [IN_TREE_PLUGIN.awsEBS]: 'ebs.csi.aws.com',
  [IN_TREE_PLUGIN.gcePD]: 'pd.csi.storage.gke.io',
  [IN_TREE_PLUGIN.azureDisk]: 'disk.csi.azure.com',
  [IN_TREE_PLUGIN.cinder]: 'cinder.csi.openstack.org',
};

/** One attachable volume of a pod: its unique name (`driver/handle`) and the limit key it counts under. */
export interface CSIVolume {
  unique: string;
  limitKey: string;
  /** Set for an in-tree volume: it counts only on nodes whose CSINode has migrated this plugin. */
  migratedPlugin?: string;
}

/** volume unique name → limit key. */
export type VolumeMap = Map<string, string>;

/** In-tree plugin and a per-disk id of a migratable in-tree source (inline volume or PV spec). */
function inTreeSource(src: Volume | PersistentVolume['spec']): { plugin: string; id: string } | undefined {
  if (!src) return undefined;
  // The CSI handle keeps the EBS volume id without the aws://<zone>/ prefix.
  if (src.awsElasticBlockStore)
    return {
      plugin: IN_TREE_PLUGIN.awsEBS,
      id: src.awsElasticBlockStore.volumeID.replace(/^aws:\/\/[^/]*\//, ''),
    };
  if (src.gcePersistentDisk) return { plugin: IN_TREE_PLUGIN.gcePD, id: src.gcePersistentDisk.pdName };
  if (src.azureDisk) return { plugin: IN_TREE_PLUGIN.azureDisk, id: src.azureDisk.diskURI };
  if (src.cinder) return { plugin: IN_TREE_PLUGIN.cinder, id: src.cinder.volumeID };
  return undefined;
}

/** The CSI driver an inline in-tree volume is migrated to, if its plugin is migratable (upstream IsInlineMigratable). */
export function inlineMigrationDriver(vol: Volume): string | undefined {
  const src = inTreeSource(vol);
  return src ? MIGRATION_DRIVER[src.plugin] : undefined;
}

function volume(driver: string, handle: string, migratedPlugin?: string): CSIVolume {
  return { unique: `${driver}/${handle}`, limitKey: csiAttachLimitKey(driver), migratedPlugin };
}

function migrated(plugin: string, handle: string): CSIVolume {
  return volume(MIGRATION_DRIVER[plugin], handle, plugin);
}

/**
 * The pod's attachable volumes in its volume order. For the incoming pod (`newPod`) a missing
 * claim is an error; for pods already on a node it is skipped. Throws what upstream returns as an
 * error: a claim without a name, a missing claim of the incoming pod, an ephemeral claim the pod
 * does not own.
 */
export function resolvePodCSIVolumes(objects: ClusterObjects, pod: Pod, newPod: boolean): CSIVolume[] {
  const out: CSIVolume[] = [];
  for (const vol of pod.spec?.volumes ?? []) {
    const ref = claimNameOfVolume(pod, vol);
    if (!ref) {
      const src = inTreeSource(vol);
      if (src) out.push(migrated(src.plugin, src.id));
      continue;
    }
    const pvc = claimForLimits(objects, pod, ref, newPod);
    if (!pvc) continue;
    const v = claimVolume(objects, pvc);
    if (v) out.push(v);
  }
  return out;
}

/** A bound claim counts its PV's CSI source (or the migrated in-tree one); otherwise its class's. */
function claimVolume(objects: ClusterObjects, pvc: PersistentVolumeClaim): CSIVolume | undefined {
  const pvName = pvc.spec?.volumeName;
  const pv = pvName ? objects.persistentVolumes.get(pvName) : undefined;
  if (!pv) return classVolume(objects, pvc);
  const csi = pv.spec?.csi;
  if (csi) return csi.driver && csi.volumeHandle ? volume(csi.driver, csi.volumeHandle) : undefined;
  const src = inTreeSource(pv.spec);
  return src ? migrated(src.plugin, src.id) : undefined;
}

/** A claim without a PV counts under its class's provisioner, with a placeholder handle unique to the claim. */
function classVolume(objects: ClusterObjects, pvc: PersistentVolumeClaim): CSIVolume | undefined {
  const scName = claimClass(pvc);
  if (!scName) return undefined;
  const sc = objects.storageClasses.get(scName);
  if (!sc) return undefined;
  const handle = `${UNBOUND_CLAIM_PREFIX}-${namespaceOf(pvc)}/${pvc.metadata?.name ?? ''}`;
  const provisioner = sc.provisioner ?? '';
  if (provisioner in MIGRATION_DRIVER) return migrated(provisioner, handle);
  return volume(provisioner, handle);
}

/** Adds the volumes that count on a node with this CSINode (a later duplicate keeps the first's place). */
export function addVolumesOnNode(
  volumes: readonly CSIVolume[],
  csiNode: CSINode | undefined,
  out: VolumeMap,
): void {
  for (const v of volumes) {
    if (v.migratedPlugin === undefined || isCSIMigrationOn(csiNode, v.migratedPlugin))
      out.set(v.unique, v.limitKey);
  }
}

/** True when no volume depends on the node (no in-tree plugin to check migration for). */
export function nodeIndependent(volumes: readonly CSIVolume[]): boolean {
  return volumes.every((v) => v.migratedPlugin === undefined);
}
