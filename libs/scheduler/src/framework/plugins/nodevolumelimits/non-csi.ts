/**
 * The in-tree (non-CSI) attach limits of upstream v1.26: EBSLimits, GCEPDLimits and AzureDiskLimits
 * count distinct in-tree disks of their type on the node (inline, via PVs, or unbound claims of an
 * in-tree provisioner class) against node allocatable `attachable-volumes-<type>` or the defaults.
 * A node whose CSINode says the plugin is migrated to CSI is left to NodeVolumeLimits.
 */
import type { Node, PersistentVolume, Pod, StorageClass } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, Handle } from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { VolumeLimitsPreFilter } from '../helper/volume-prefilter';
import { PluginNames } from '../names';
import { claimNameOfVolume, namespaceOf } from '../volumebinding/pv-helpers';
import {
  ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
  claimForLimits,
  IN_TREE_PLUGIN,
  allocatableVolumeLimits,
  isCSIMigrationOn,
} from './common';

export const DEFAULT_MAX_EBS_VOLUMES = 39;
export const DEFAULT_MAX_EBS_NITRO_VOLUMES = 25;
export const DEFAULT_MAX_GCE_PD_VOLUMES = 16;
export const DEFAULT_MAX_AZURE_DISK_VOLUMES = 16;
const EBS_NITRO_INSTANCE_TYPE = /^[cmr]5.*|t3|z1d/;
const UNBOUND_CLAIM_PREFIX = 'unbound-claim';

/** How one in-tree volume type is recognised and limited. */
export interface InTreeVolumeFilter {
  pluginName: string;
  limitKey: string;
  filterVolume(vol: Volume): string | undefined;
  filterPersistentVolume(pv: PersistentVolume): string | undefined;
  maxVolumes(node: Node): number;
}

function instanceType(node: Node): string {
  const l = node.metadata?.labels ?? {};
  return l['node.kubernetes.io/instance-type'] ?? l['beta.kubernetes.io/instance-type'] ?? '';
}

export const EBS_VOLUME_FILTER: InTreeVolumeFilter = {
  pluginName: IN_TREE_PLUGIN.awsEBS,
  limitKey: 'attachable-volumes-aws-ebs',
  filterVolume: (v) => v.awsElasticBlockStore?.volumeID,
  filterPersistentVolume: (pv) => pv.spec?.awsElasticBlockStore?.volumeID,
  maxVolumes: (node) =>
    EBS_NITRO_INSTANCE_TYPE.test(instanceType(node))
      ? DEFAULT_MAX_EBS_NITRO_VOLUMES
      : DEFAULT_MAX_EBS_VOLUMES,
};

export const GCE_PD_VOLUME_FILTER: InTreeVolumeFilter = {
  pluginName: IN_TREE_PLUGIN.gcePD,
  limitKey: 'attachable-volumes-gce-pd',
  filterVolume: (v) => v.gcePersistentDisk?.pdName,
  filterPersistentVolume: (pv) => pv.spec?.gcePersistentDisk?.pdName,
  maxVolumes: () => DEFAULT_MAX_GCE_PD_VOLUMES,
};

export const AZURE_DISK_VOLUME_FILTER: InTreeVolumeFilter = {
  pluginName: IN_TREE_PLUGIN.azureDisk,
  limitKey: 'attachable-volumes-azure-disk',
  filterVolume: (v) => v.azureDisk?.diskName,
  filterPersistentVolume: (pv) => pv.spec?.azureDisk?.diskName,
  maxVolumes: () => DEFAULT_MAX_AZURE_DISK_VOLUMES,
};

export class NonCSILimits extends VolumeLimitsPreFilter implements FilterPlugin {
  constructor(
    readonly name: string,
    private readonly volumeFilter: InTreeVolumeFilter,
    private readonly handle: Handle,
  ) {
    super();
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if ((pod.spec?.volumes ?? []).length === 0) return null;
    const newVolumes = new Set<string>();
    try {
      this.filterVolumes(pod, true, newVolumes);
    } catch (e) {
      return Status.error(e as Error);
    }
    if (newVolumes.size === 0) return null;
    if (isCSIMigrationOn(this.handle.objects.csiNodes.get(nodeInfo.name), this.volumeFilter.pluginName))
      return null;

    const existing = new Set<string>();
    for (const pi of nodeInfo.pods) this.filterVolumes(pi.pod, false, existing);
    for (const id of existing) newVolumes.delete(id);
    const max =
      allocatableVolumeLimits(nodeInfo).get(this.volumeFilter.limitKey) ??
      this.volumeFilter.maxVolumes(nodeInfo.node);
    if (existing.size + newVolumes.size > max)
      return Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
    return null;
  }

  private filterVolumes(pod: Pod, newPod: boolean, out: Set<string>): void {
    const ns = namespaceOf(pod);
    for (const vol of pod.spec?.volumes ?? []) {
      const inline = this.volumeFilter.filterVolume(vol);
      if (inline !== undefined) {
        out.add(inline);
        continue;
      }
      const ref = claimNameOfVolume(pod, vol);
      if (!ref) continue;
      const pvc = claimForLimits(this.handle.objects, pod, ref, newPod);
      if (!pvc) continue;
      const placeholder = `${UNBOUND_CLAIM_PREFIX}-${ns}/${ref.name}`;
      const pvName = pvc.spec?.volumeName;
      const pv = pvName ? this.handle.objects.persistentVolumes.get(pvName) : undefined;
      if (!pv) {
        // Unbound (or PV not found): counts when the class provisions this volume type.
        if (this.matchProvisioner(pvc.spec?.storageClassName)) out.add(placeholder);
        continue;
      }
      const id = this.volumeFilter.filterPersistentVolume(pv);
      if (id !== undefined) out.add(id);
    }
  }

  /** Upstream looks only at spec.storageClassName here (not the beta annotation). */
  private matchProvisioner(className: string | undefined): boolean {
    if (className === undefined || className === null) return false;
    const sc: StorageClass | undefined = this.handle.objects.storageClasses.get(className);
    return sc?.provisioner === this.volumeFilter.pluginName;
  }
}

export function newEBSLimits(handle: Handle): NonCSILimits {
  return new NonCSILimits(PluginNames.EBSLimits, EBS_VOLUME_FILTER, handle);
}
export function newGCEPDLimits(handle: Handle): NonCSILimits {
  return new NonCSILimits(PluginNames.GCEPDLimits, GCE_PD_VOLUME_FILTER, handle);
}
export function newAzureDiskLimits(handle: Handle): NonCSILimits {
  return new NonCSILimits(PluginNames.AzureDiskLimits, AZURE_DISK_VOLUME_FILTER, handle);
}
