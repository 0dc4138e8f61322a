/**
 * VolumeRestrictions: inline GCE PD / AWS EBS / RBD / iSCSI disks may not be used twice on a node
 * (unless both mounts are read-only where the volume type allows it), and a ReadWriteOncePod
 * claim may be used by one pod only: v1.26 rejects the pod at PreFilter when another pod uses it;
 * from 1.27 every node fails Filter with a preemptible status, tracked through preemption's
 * AddPod/RemovePod (readWriteOncePodConflictInFilter).
 */
import type { PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  deletedPodOf,
} from '../../events';
import type { Volume } from 'kubernetes-types/core/v1';
import type { CycleState, StateData } from '../../cycle-state';
import type {
  FilterPlugin,
  Handle,
  PreFilterExtensions,
  PreFilterPlugin,
  PreFilterResult,
} from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo, PodInfo } from '../../types';
import { PluginNames } from '../names';
import { namespaceOf } from '../volumebinding/pv-helpers';

export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';
export const ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT =
  'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode';
export const ERR_REASON_READ_WRITE_ONCE_POD_IN_USE =
  'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod';
export const READ_WRITE_ONCE_POD_GATE = 'ReadWriteOncePod';
const PRE_FILTER_KEY = `PreFilter${PluginNames.VolumeRestrictions}`;

/** From 1.27: the pod's ReadWriteOncePod claims and how many of them other pods use. */
class ReadWriteOncePodState implements StateData {
  constructor(
    readonly claimNames: ReadonlySet<string>,
    public conflicts: number,
  ) {}

  clone(): StateData {
    return new ReadWriteOncePodState(this.claimNames, this.conflicts);
  }

  conflictsOf(pod: Pod): number {
    let n = 0;
    for (const v of pod.spec?.volumes ?? []) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (claim !== undefined && this.claimNames.has(claim)) n++;
    }
    return n;
  }
}

const needsRestrictionsCheck = (v: Volume): boolean =>
  !!(v.gcePersistentDisk || v.awsElasticBlockStore || v.rbd || v.iscsi);

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

export class VolumeRestrictions implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.VolumeRestrictions;

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'AssignedPod', actionType: ActionType.Delete },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterAssignedPodDeleted(pod, o, n),
      },
      { event: { resource: 'Node', actionType: ActionType.Add } },
      {
        event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterPersistentVolumeClaimAdded(pod, o, n),
      },
    ];
  }

  /** A claim the pod mounts (same namespace and name) was created. */
  isSchedulableAfterPersistentVolumeClaimAdded(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [, pvc] = asObjects<PersistentVolumeClaim>(oldObj, newObj);
    if (namespaceOf(pvc) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
    const wanted = (pod.spec?.volumes ?? []).some(
      (v) => v.persistentVolumeClaim?.claimName === pvc.metadata?.name,
    );
    return wanted ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** The deleted pod (same namespace) had a disk clashing with the pod's, or one of its claims. */
  isSchedulableAfterAssignedPodDeleted(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const deleted = deletedPodOf(oldObj, newObj);
    if (namespaceOf(deleted) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
    const volumes = pod.spec?.volumes ?? [];
    if (volumes.some((v) => needsRestrictionsCheck(v) && isVolumeConflict(v, deleted)))
      return QueueingHint.Queue;
    const claims = new Set(
      volumes.flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [])),
    );
    const shared = (deleted.spec?.volumes ?? []).some(
      (v) => v.persistentVolumeClaim && claims.has(v.persistentVolumeClaim.claimName),
    );
    return shared ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }
  private readonly enableReadWriteOncePod: boolean;
  private readonly conflictInFilter: boolean;

  constructor(private readonly handle: Handle) {
    this.enableReadWriteOncePod = handle.features.enabled(READ_WRITE_ONCE_POD_GATE);
    this.conflictInFilter = handle.features.behaviour.readWriteOncePodConflictInFilter;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    if (!this.enableReadWriteOncePod) return { status: null };
    if (!this.conflictInFilter) return { status: this.readWriteOncePodConflict(pod) };
    const ns = namespaceOf(pod);
    const claimNames = new Set<string>();
    for (const vol of pod.spec?.volumes ?? []) {
      if (!vol.persistentVolumeClaim) continue;
      const name = vol.persistentVolumeClaim.claimName;
      const pvc = this.handle.objects.persistentVolumeClaims.get(ns, name);
      if (!pvc) return { status: Status.unresolvable(`persistentvolumeclaim "${name}" not found`) };
      if ((pvc.spec?.accessModes ?? []).includes('ReadWriteOncePod')) claimNames.add(name);
    }
    let conflicts = 0;
    for (const name of claimNames) if (this.claimInUse(`${ns}/${name}`)) conflicts++;
    if (conflicts === 0 && !(pod.spec?.volumes ?? []).some(needsRestrictionsCheck))
      return { status: Status.skip() };
    state.write(PRE_FILTER_KEY, new ReadWriteOncePodState(claimNames, conflicts));
    return { status: null };
  }

  private claimInUse(key: string): boolean {
    for (const ni of this.handle.snapshot().list()) if (ni.pvcRefCounts.has(key)) return true;
    return false;
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

  /** v1.26 has no PreFilter state to update when preemption adds or removes pods; 1.27 does. */
  preFilterExtensions(): PreFilterExtensions | undefined {
    if (!this.conflictInFilter) return undefined;
    const update = (state: CycleState, pi: PodInfo, sign: 1 | -1): MaybeStatus => {
      const s = state.read<ReadWriteOncePodState>(PRE_FILTER_KEY);
      if (s) s.conflicts += sign * s.conflictsOf(pi.pod);
      return null;
    };
    return {
      addPod: (state, _pod, pi) => update(state, pi, 1),
      removePod: (state, _pod, pi) => update(state, pi, -1),
    };
  }

  /** Without volumes the pod needs nothing from any node. */
  filterPassesAllNodes(_state: CycleState, pod: Pod): boolean {
    return (pod.spec?.volumes ?? []).length === 0;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const diskConflict = this.diskConflict(pod, nodeInfo);
    if (diskConflict || !this.conflictInFilter) return diskConflict;
    const s = state.read<ReadWriteOncePodState>(PRE_FILTER_KEY);
    if (!s || s.conflicts === 0) return null;
    // Worded as in-use from 1.34; 1.27–1.33 kept the PreFilter-era wording.
    return Status.unschedulable(
      this.handle.features.behaviour.readWriteOncePodReasonSaysInUse
        ? ERR_REASON_READ_WRITE_ONCE_POD_IN_USE
        : ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT,
    );
  }

  private diskConflict(pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    for (const v of pod.spec?.volumes ?? []) {
      if (!v.gcePersistentDisk && !v.awsElasticBlockStore && !v.rbd && !v.iscsi) continue;
      for (const ev of nodeInfo.pods) {
        if (isVolumeConflict(v, ev.pod)) return Status.unschedulable(ERR_REASON_DISK_CONFLICT);
      }
    }
    return null;
  }
}
