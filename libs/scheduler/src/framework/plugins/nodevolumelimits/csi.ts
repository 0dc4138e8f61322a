/**
 * NodeVolumeLimits (upstream CSILimits, v1.26): per CSI driver, the distinct volumes attached to
 * the node plus the pod's new ones may not exceed the driver's limit (CSINode allocatable.count,
 * else node allocatable `attachable-volumes-csi-<driver>`). A claim not bound yet counts under its
 * class's provisioner.
 */
import type { CSINode, PersistentVolume, PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, Handle } from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { VolumeLimitsPreFilter } from '../helper/volume-prefilter';
import { PluginNames } from '../names';
import {
  claimClass,
  claimNameOfVolume,
  ephemeralClaimOwnershipError,
  namespaceOf,
} from '../volumebinding/pv-helpers';
import {
  CSI_ATTACH_LIMIT_PREFIX,
  ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
  IN_TREE_PLUGIN,
  allocatableVolumeLimits,
  csiAttachLimitKey,
  isCSIMigrationOn,
} from './common';

/** Stands in for upstream's random per-plugin prefix of unbound claims' placeholder handles. */
const UNBOUND_CLAIM_PREFIX = 'unbound-claim';

/** In-tree plugin → CSI driver that takes it over when migrated. */
const MIGRATION_DRIVER: Record<string, string> = {
  [IN_TREE_PLUGIN.awsEBS]: 'ebs.csi.aws.com',
  [IN_TREE_PLUGIN.gcePD]: 'pd.csi.storage.gke.io',
  [IN_TREE_PLUGIN.azureDisk]: 'disk.csi.azure.com',
  [IN_TREE_PLUGIN.cinder]: 'cinder.csi.openstack.org',
};

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

/** volume unique name (`driver/handle`) → limit key. */
type VolumeMap = Map<string, string>;

export class CSILimits extends VolumeLimitsPreFilter implements FilterPlugin {
  readonly name = PluginNames.NodeVolumeLimits;

  constructor(private readonly handle: Handle) {
    super();
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if ((pod.spec?.volumes ?? []).length === 0) return null;
    const csiNode = this.handle.objects.csiNodes.get(nodeInfo.name);
    const newVolumes: VolumeMap = new Map();
    try {
      this.filterAttachableVolumes(pod, csiNode, true, newVolumes);
    } catch (e) {
      return Status.error(e as Error);
    }
    if (newVolumes.size === 0) return null;

    // From 1.37 (VolumeLimitScaling) a driver that opts in keeps pods off nodes without it.
    if (this.handle.features.enabled('VolumeLimitScaling')) {
      for (const key of newVolumes.values()) {
        const driver = key.slice(CSI_ATTACH_LIMIT_PREFIX.length);
        if (!this.driverInstalledOnNode(driver, csiNode)) {
          return Status.unschedulable(`${driver} CSI driver is not installed on the node`);
        }
      }
    }

    const limits = allocatableVolumeLimits(nodeInfo);
    for (const d of csiNode?.spec?.drivers ?? []) {
      if (d.allocatable?.count != null) limits.set(csiAttachLimitKey(d.name), d.allocatable.count);
    }
    if (limits.size === 0) return null;

    const attached: VolumeMap = new Map();
    for (const pi of nodeInfo.pods) this.filterAttachableVolumes(pi.pod, csiNode, false, attached);
    const attachedCount = new Map<string, number>();
    for (const [unique, key] of attached) {
      newVolumes.delete(unique);
      attachedCount.set(key, (attachedCount.get(key) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const key of newVolumes.values()) newCount.set(key, (newCount.get(key) ?? 0) + 1);
    for (const [key, count] of newCount) {
      const max = limits.get(key);
      if (max !== undefined && (attachedCount.get(key) ?? 0) + count > max) {
        return Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
      }
    }
    return null;
  }

  /** A driver without a CSIDriver object, or one that does not opt in, counts as installed. */
  private driverInstalledOnNode(driver: string, csiNode: CSINode | undefined): boolean {
    const csiDriver = this.handle.objects.csiDrivers.get(driver) as
      { spec?: { preventPodSchedulingIfMissing?: boolean } } | undefined;
    if (!csiDriver?.spec?.preventPodSchedulingIfMissing) return true;
    return (csiNode?.spec?.drivers ?? []).some((d) => d.name === driver);
  }

  /**
   * Adds the pod's CSI volumes to `out`. For the incoming pod a missing claim is an error; for
   * pods already on the node it is skipped.
   */
  private filterAttachableVolumes(
    pod: Pod,
    csiNode: CSINode | undefined,
    newPod: boolean,
    out: VolumeMap,
  ): void {
    const ns = namespaceOf(pod);
    for (const vol of pod.spec?.volumes ?? []) {
      const ref = claimNameOfVolume(pod, vol);
      if (!ref) {
        const src = inTreeSource(vol);
        if (src && isCSIMigrationOn(csiNode, src.plugin)) {
          const driver = MIGRATION_DRIVER[src.plugin];
          out.set(`${driver}/${src.id}`, csiAttachLimitKey(driver));
        }
        continue;
      }
      if (!ref.name) throw new Error('PersistentVolumeClaim had no name');
      const pvc = this.handle.objects.persistentVolumeClaims.get(ns, ref.name);
      if (!pvc) {
        if (newPod)
          throw new Error(`looking up PVC ${ns}/${ref.name}: persistentvolumeclaim "${ref.name}" not found`);
        continue;
      }
      if (ref.ephemeral) {
        const err = ephemeralClaimOwnershipError(pod, pvc);
        if (err) throw new Error(err);
      }
      const info = this.csiDriverInfo(csiNode, pvc);
      if (!info) continue;
      out.set(`${info.driver}/${info.handle}`, csiAttachLimitKey(info.driver));
    }
  }

  private csiDriverInfo(
    csiNode: CSINode | undefined,
    pvc: PersistentVolumeClaim,
  ): { driver: string; handle: string } | undefined {
    const pvName = pvc.spec?.volumeName;
    const pv = pvName ? this.handle.objects.persistentVolumes.get(pvName) : undefined;
    if (!pv) return this.csiDriverInfoFromClass(csiNode, pvc);
    const csi = pv.spec?.csi;
    if (csi)
      return csi.driver && csi.volumeHandle ? { driver: csi.driver, handle: csi.volumeHandle } : undefined;
    const src = inTreeSource(pv.spec);
    if (!src || !isCSIMigrationOn(csiNode, src.plugin)) return undefined;
    return { driver: MIGRATION_DRIVER[src.plugin], handle: src.id };
  }

  /** A claim without a PV counts under its class's provisioner, with a placeholder handle unique to the claim. */
  private csiDriverInfoFromClass(
    csiNode: CSINode | undefined,
    pvc: PersistentVolumeClaim,
  ): { driver: string; handle: string } | undefined {
    const scName = claimClass(pvc);
    if (!scName) return undefined;
    const sc = this.handle.objects.storageClasses.get(scName);
    if (!sc) return undefined;
    const handle = `${UNBOUND_CLAIM_PREFIX}-${namespaceOf(pvc)}/${pvc.metadata?.name ?? ''}`;
    const provisioner = sc.provisioner ?? '';
    if (provisioner in MIGRATION_DRIVER) {
      if (!isCSIMigrationOn(csiNode, provisioner)) return undefined;
      return { driver: MIGRATION_DRIVER[provisioner], handle };
    }
    return { driver: provisioner, handle };
  }
}
