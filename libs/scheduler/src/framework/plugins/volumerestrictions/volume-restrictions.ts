/**
 * VolumeRestrictions (upstream v1.26): inline GCE PD / AWS EBS / RBD / iSCSI disks may not be
 * used twice on a node (unless both mounts are read-only where the volume type allows it), and
 * with ReadWriteOncePod a claim in use by any pod blocks the whole cluster at PreFilter.
 */
import type { Pod } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, Handle, PreFilterPlugin, PreFilterResult } from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';
import { namespaceOf } from '../volumebinding/pv-helpers';

export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';
export const ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';
export const READ_WRITE_ONCE_POD_GATE = 'ReadWriteOncePod';

function haveOverlap(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return b.some((x) => set.has(x));
}

/** Upstream isVolumeConflict: does `vol` clash with any volume of `existing`? */
export function isVolumeConflict(vol: Volume, existing: Pod): boolean {
  for (const ev of existing.spec?.volumes ?? []) {
    if (vol.gcePersistentDisk && ev.gcePersistentDisk) {
      const d = vol.gcePersistentDisk;
      const e = ev.gcePersistentDisk;
      if (d.pdName === e.pdName && !(d.readOnly && e.readOnly)) return true;
    }
    // EBS volumes conflict even when both are read-only.
    if (vol.awsElasticBlockStore && ev.awsElasticBlockStore) {
      if (vol.awsElasticBlockStore.volumeID === ev.awsElasticBlockStore.volumeID) return true;
    }
    if (vol.iscsi && ev.iscsi) {
      if (vol.iscsi.iqn === ev.iscsi.iqn && !(vol.iscsi.readOnly && ev.iscsi.readOnly)) return true;
    }
    if (vol.rbd && ev.rbd) {
      const r = vol.rbd;
      const e = ev.rbd;
      if (
        haveOverlap(r.monitors ?? [], e.monitors ?? []) &&
        (r.pool ?? 'rbd') === (e.pool ?? 'rbd') &&
        r.image === e.image &&
        !(r.readOnly && e.readOnly)
      ) {
        return true;
      }
    }
  }
  return false;
}

export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin {
  readonly name = PluginNames.VolumeRestrictions;
  private readonly enableReadWriteOncePod: boolean;

  constructor(private readonly handle: Handle) {
    this.enableReadWriteOncePod = handle.features.enabled(READ_WRITE_ONCE_POD_GATE);
  }

  preFilter(_state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    if (!this.enableReadWriteOncePod) return { status: null };
    return { status: this.readWriteOncePodConflict(pod) };
  }

  /** v1.26: a ReadWriteOncePod claim used by a pod on any node rejects the pod outright. */
  private readWriteOncePodConflict(pod: Pod): MaybeStatus {
    const ns = namespaceOf(pod);
    for (const vol of pod.spec?.volumes ?? []) {
      if (!vol.persistentVolumeClaim) continue;
      const name = vol.persistentVolumeClaim.claimName;
      const pvc = this.handle.objects.persistentVolumeClaims.get(ns, name);
      if (!pvc) return Status.unresolvable(`persistentvolumeclaim "${name}" not found`);
      if (!(pvc.spec?.accessModes ?? []).includes('ReadWriteOncePod')) continue;
      const key = `${ns}/${name}`;
      for (const ni of this.handle.snapshot().list()) {
        if (ni.pvcRefCounts.has(key)) return Status.unresolvable(ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT);
      }
    }
    return null;
  }

  /** v1.26 has no PreFilter state to update when preemption adds or removes pods. */
  preFilterExtensions(): undefined {
    return undefined;
  }

  /** Without volumes the pod needs nothing from any node. */
  filterPassesAllNodes(_state: CycleState, pod: Pod): boolean {
    return (pod.spec?.volumes ?? []).length === 0;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    for (const v of pod.spec?.volumes ?? []) {
      if (!v.gcePersistentDisk && !v.awsElasticBlockStore && !v.rbd && !v.iscsi) continue;
      for (const ev of nodeInfo.pods) {
        if (isVolumeConflict(v, ev.pod)) return Status.unschedulable(ERR_REASON_DISK_CONFLICT);
      }
    }
    return null;
  }
}
