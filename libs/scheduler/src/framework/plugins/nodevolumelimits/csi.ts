/**
 * NodeVolumeLimits (upstream CSILimits, v1.26): per CSI driver, the distinct volumes attached to
 * the node plus the pod's new ones may not exceed the driver's limit (CSINode allocatable.count,
 * else node allocatable `attachable-volumes-csi-<driver>`). A claim not bound yet counts under its
 * class's provisioner.
 */
import type { CSINode, PersistentVolumeClaim, Pod } from '@schedlab/k8s';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  deletedPodOf,
  heldANode,
} from '../../events';
import { claimNameOfVolume, namespaceOf } from '../volumebinding/pv-helpers';
import type { ClusterObjects, StorageStamp } from '../../../backend/cache/cluster-objects';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, Handle } from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { VolumeLimitsPreFilter } from '../helper/volume-prefilter';
import { PluginNames } from '../names';
import {
  CSI_ATTACH_LIMIT_PREFIX,
  ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
  allocatableVolumeLimits,
  csiAttachLimitKey,
} from './common';
import {
  type CSIVolume,
  type VolumeMap,
  addVolumesOnNode,
  inlineMigrationDriver,
  nodeIndependent,
  resolvePodCSIVolumes,
} from './csi-volumes';

/**
 * What Filter needs of one node, kept until the node's pods, its CSINode or the claims, PVs and
 * classes change: the limits per key, and the volumes its pods attach (counted per limit key).
 */
interface NodeVolumes {
  /** The NodeInfo this entry belongs to (entries by snapshot index are checked against it). */
  nodeInfo: NodeInfo;
  csiNode: CSINode | undefined;
  /** The CSINode store's revision when `csiNode` was looked up: unchanged, so is the node's CSINode. */
  csiNodesRevision: number;
  objects: ClusterObjects;
  limits: Map<string, number>;
  /** Computed on first need: with no limits the node's pods are never looked at. */
  attached?: {
    generation: number;
    stamp: StorageStamp;
    volumes: VolumeMap;
    /**
     * Per limit key of the node: its limit less the attached volumes counted under it (negative
     * when already over), so Filter compares the pod's new volumes with one number.
     */
    room: Map<string, number>;
  };
}

/**
 * Each snapshot node's room per limit key, in arrays by node index: Filter walks the nodes in
 * index order, and reading these instead of each node's own entry and maps spares the cache
 * misses that made NodeVolumeLimits the costliest filter on a 5,000-node cluster. A node's
 * record holds while it is the same NodeInfo at the same generation and the set's objects,
 * CSINodes, claims, PVs and classes have not changed (as the per-node entries they come from).
 */
interface FlatRooms {
  objects: ClusterObjects;
  csiNodesRevision: number;
  storageRevision: number;
  info: (NodeInfo | undefined)[];
  generation: number[];
  /** Limit key → room by node index (Infinity: no limit under that key). */
  rooms: Map<string, number[]>;
}

/** The pod's distinct volumes on one node, as parallel lists (no iterator or map per Filter call). */
interface NewVolumes {
  uniques: string[];
  limitKeys: string[];
  /** Distinct limit keys in first-seen order. */
  distinctKeys: string[];
  /** How many of `uniques` count under each of `distinctKeys`. */
  counts: number[];
}

function newVolumesOf(map: VolumeMap): NewVolumes {
  const uniques = [...map.keys()];
  const limitKeys = [...map.values()];
  const distinctKeys = [...new Set(limitKeys)];
  const counts = distinctKeys.map((key) => limitKeys.filter((k) => k === key).length);
  return { uniques, limitKeys, distinctKeys, counts };
}

/** The incoming pod's volumes as of `stamp`, or the error resolving them. */
interface IncomingVolumes {
  pod: Pod;
  stamp: StorageStamp;
  volumes: readonly CSIVolume[];
  /** The same volumes on every node when none depends on the node (the usual case). */
  nodeIndependent?: NewVolumes;
  /**
   * With VolumeLimitScaling and node-independent volumes: the drivers of the pod's volumes whose
   * CSIDriver keeps pods off nodes without them (as of `driversRevision`), usually none.
   */
  mustBeInstalled?: string[];
  driversRevision: number;
  error?: string;
}

/** A VolumeAttachment's attacher (the CSI driver that attached the volume). */
interface VolumeAttachmentLike {
  spec?: { attacher?: string };
}

/** Each driver's attach limit on a CSINode (0 when it publishes none). */
function csiNodeLimits(n: CSINode | undefined): Map<string, number> {
  return new Map((n?.spec?.drivers ?? []).map((d) => [d.name, d.allocatable?.count ?? 0]));
}

export class CSILimits extends VolumeLimitsPreFilter implements FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.NodeVolumeLimits;

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      { event: { resource: 'storage.k8s.io/CSINode', actionType: ActionType.Add } },
      {
        event: { resource: 'storage.k8s.io/CSINode', actionType: ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterCSINodeUpdated(pod, o, n),
      },
      {
        event: { resource: 'AssignedPod', actionType: ActionType.Delete },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterAssignedPodDeleted(pod, o, n),
      },
      {
        event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterPVCAdded(pod, o, n),
      },
      {
        event: { resource: 'storage.k8s.io/VolumeAttachment', actionType: ActionType.Delete },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterVolumeAttachmentDeleted(pod, o, n),
      },
    ];
  }

  /** A pod on a node (or nominated) that attached claims, ephemeral or migratable in-tree volumes went. */
  isSchedulableAfterAssignedPodDeleted(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const deleted = deletedPodOf(oldObj, newObj);
    const volumes = deleted.spec?.volumes ?? [];
    if (volumes.length === 0) return QueueingHint.QueueSkip;
    if (!heldANode(deleted)) return QueueingHint.QueueSkip;
    const attaches = volumes.some((v) => v.persistentVolumeClaim || v.ephemeral || inlineMigrationDriver(v));
    return attaches ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** A claim the pod mounts (ephemeral ones included) was created. */
  isSchedulableAfterPVCAdded(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [, pvc] = asObjects<PersistentVolumeClaim>(oldObj, newObj);
    if (namespaceOf(pvc) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
    const wanted = (pod.spec?.volumes ?? []).some(
      (v) => claimNameOfVolume(pod, v)?.name === pvc.metadata?.name,
    );
    return wanted ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** Any claim of the pod's may have been the detached volume; an inline one only if its driver attached it. */
  isSchedulableAfterVolumeAttachmentDeleted(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [deleted] = asObjects<VolumeAttachmentLike>(oldObj, newObj);
    if (!deleted) throw new Error('a VolumeAttachment deletion needs the deleted object');
    for (const vol of pod.spec?.volumes ?? []) {
      if (vol.persistentVolumeClaim) return QueueingHint.Queue;
      const driver = inlineMigrationDriver(vol);
      if (driver !== undefined && deleted.spec?.attacher === driver) return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }

  /** Some driver's attach limit on the node went up. */
  isSchedulableAfterCSINodeUpdated(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<CSINode>(oldObj, newObj);
    const before = csiNodeLimits(original);
    for (const [name, limit] of csiNodeLimits(modified)) {
      if (limit > (before.get(name) ?? 0)) return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }
  /**
   * Per NodeInfo object, so preemption's and nominated pods' copies never see the original's
   * entry: the snapshot's NodeInfos by their index, copies (index -1) by identity.
   */
  private readonly byIndex: (NodeVolumes | undefined)[] = [];
  private readonly nodes = new WeakMap<NodeInfo, NodeVolumes>();
  private incoming?: IncomingVolumes;
  private flat?: FlatRooms;
  private readonly limitScaling: boolean;

  constructor(private readonly handle: Handle) {
    super();
    this.limitScaling = handle.features.enabled('VolumeLimitScaling');
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const podVolumes = pod.spec?.volumes;
    if (!podVolumes || podVolumes.length === 0) return null;
    const incoming = this.incomingVolumes(pod);
    if (incoming.error !== undefined) return Status.error(new Error(incoming.error));
    const same = incoming.nodeIndependent;
    const idx = nodeInfo.index;
    // The usual call: the node's room per key was recorded at this generation, and no driver of
    // the pod must be looked for on the node. Room for all the pod's volumes settles it.
    if (same && idx >= 0 && !(this.limitScaling && incoming.mustBeInstalled!.length > 0)) {
      const flat = this.flatFor(this.handle.objects);
      if (flat.info[idx] === nodeInfo && flat.generation[idx] === nodeInfo.generation) {
        const { distinctKeys, counts } = same;
        let k = 0;
        for (; k < distinctKeys.length; k++) {
          // Unrecorded (undefined) or near the limit: the full check below.
          if (!(counts[k] <= (flat.rooms.get(distinctKeys[k])?.[idx] as number))) break;
        }
        if (k === distinctKeys.length) return null;
      }
    }
    return this.filterNode(incoming, nodeInfo);
  }

  /** Filter without the per-index record: looks the node's limits and attached volumes up. */
  private filterNode(incoming: IncomingVolumes, nodeInfo: NodeInfo): MaybeStatus {
    const node = this.nodeVolumes(nodeInfo);
    const csiNode = node.csiNode;
    let newVolumes = incoming.nodeIndependent;
    if (!newVolumes) {
      const map: VolumeMap = new Map();
      addVolumesOnNode(incoming.volumes, csiNode, map);
      newVolumes = newVolumesOf(map);
    }
    if (newVolumes.uniques.length === 0) return null;

    // From 1.37 (VolumeLimitScaling) a driver that opts in keeps pods off nodes without it.
    if (this.limitScaling) {
      if (incoming.mustBeInstalled) {
        for (const driver of incoming.mustBeInstalled) {
          if (!driverOnNode(driver, csiNode))
            return Status.unschedulable(`${driver} CSI driver is not installed on the node`);
        }
      } else {
        for (const key of newVolumes.distinctKeys) {
          const driver = key.slice(CSI_ATTACH_LIMIT_PREFIX.length);
          if (!this.driverInstalledOnNode(driver, csiNode)) {
            return Status.unschedulable(`${driver} CSI driver is not installed on the node`);
          }
        }
      }
    }

    if (node.limits.size === 0) {
      this.record(nodeInfo, newVolumes.distinctKeys, undefined);
      return null;
    }
    const attached = this.attachedVolumes(nodeInfo, node);
    this.record(nodeInfo, newVolumes.distinctKeys, attached.room);
    const { uniques, limitKeys, distinctKeys, counts } = newVolumes;
    for (let k = 0; k < distinctKeys.length; k++) {
      const key = distinctKeys[k];
      const room = attached.room.get(key);
      if (room === undefined) continue;
      // Room for all of them, even those already attached: no need to tell which are.
      if (counts[k] <= room) continue;
      // A volume already attached to the node is not counted again.
      let count = 0;
      for (let i = 0; i < uniques.length; i++) {
        if (limitKeys[i] === key && !attached.volumes.has(uniques[i])) count++;
      }
      if (count > 0 && count > room) {
        return Status.unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
      }
    }
    return null;
  }

  /**
   * The records by snapshot index, valid while the objects, CSINodes, claims, PVs and classes
   * are: a new set starts when any changes.
   */
  private flatFor(objects: ClusterObjects): FlatRooms {
    const f = this.flat;
    if (
      f &&
      f.objects === objects &&
      f.csiNodesRevision === objects.csiNodes.revision &&
      f.storageRevision === objects.storageRevision()
    )
      return f;
    return (this.flat = {
      objects,
      csiNodesRevision: objects.csiNodes.revision,
      storageRevision: objects.storageRevision(),
      info: [],
      generation: [],
      rooms: new Map(),
    });
  }

  /** Records the node's room under each key (Infinity: no limit), for the next pods' Filter calls. */
  private record(nodeInfo: NodeInfo, keys: readonly string[], room: Map<string, number> | undefined): void {
    const idx = nodeInfo.index;
    if (idx < 0) return;
    const flat = this.flatFor(this.handle.objects);
    flat.info[idx] = nodeInfo;
    flat.generation[idx] = nodeInfo.generation;
    for (const key of keys) {
      let rooms = flat.rooms.get(key);
      if (!rooms) flat.rooms.set(key, (rooms = []));
      rooms[idx] = room?.get(key) ?? Infinity;
    }
  }

  /** The incoming pod's volumes, resolved once per pod and attempt rather than once per node. */
  private incomingVolumes(pod: Pod): IncomingVolumes {
    const last = this.incoming;
    const objects = this.handle.objects;
    // Claims, PVs and classes decide what a pod's volumes are; CSIDrivers which must be installed.
    if (
      last &&
      last.pod === pod &&
      last.driversRevision === objects.csiDrivers.revision &&
      objects.isCurrent(last.stamp)
    )
      return last;
    const stamp = objects.storageStamp();
    const driversRevision = objects.csiDrivers.revision;
    let next: IncomingVolumes;
    try {
      const volumes = resolvePodCSIVolumes(objects, pod, true);
      next = { pod, stamp, volumes, driversRevision };
      if (nodeIndependent(volumes)) {
        const map: VolumeMap = new Map();
        addVolumesOnNode(volumes, undefined, map);
        const independent = newVolumesOf(map);
        next.nodeIndependent = independent;
        next.mustBeInstalled = independent.distinctKeys
          .map((key) => key.slice(CSI_ATTACH_LIMIT_PREFIX.length))
          .filter((driver) => this.driverMustBeInstalled(driver));
      }
    } catch (e) {
      next = { pod, stamp, volumes: [], driversRevision, error: (e as Error).message };
    }
    return (this.incoming = next);
  }

  /**
   * The node's entry: its CSINode and limits (node allocatable `attachable-volumes-*`, overridden
   * per driver by the CSINode's allocatable count). Found by the node's snapshot index (a copy has
   * none and is found by identity); the CSINode is looked up again only when the CSINode store
   * changed.
   */
  private nodeVolumes(nodeInfo: NodeInfo): NodeVolumes {
    const objects = this.handle.objects;
    const byIndex = nodeInfo.index >= 0;
    const cached = byIndex ? this.byIndex[nodeInfo.index] : this.nodes.get(nodeInfo);
    if (
      cached &&
      cached.nodeInfo === nodeInfo &&
      cached.objects === objects &&
      cached.csiNodesRevision === objects.csiNodes.revision
    )
      return cached;
    const csiNode = objects.csiNodes.get(nodeInfo.name);
    const csiNodesRevision = objects.csiNodes.revision;
    let entry: NodeVolumes;
    if (cached && cached.nodeInfo === nodeInfo && cached.csiNode === csiNode) {
      entry = cached;
      entry.objects = objects;
      entry.csiNodesRevision = csiNodesRevision;
    } else {
      const limits = allocatableVolumeLimits(nodeInfo);
      for (const d of csiNode?.spec?.drivers ?? []) {
        if (d.allocatable?.count != null) limits.set(csiAttachLimitKey(d.name), d.allocatable.count);
      }
      entry = { nodeInfo, csiNode, csiNodesRevision, objects, limits };
    }
    if (byIndex) this.byIndex[nodeInfo.index] = entry;
    else this.nodes.set(nodeInfo, entry);
    return entry;
  }

  /**
   * The distinct volumes the node's pods attach. Recomputed when a pod is added to or removed
   * from the node (its generation) or a claim, PV or class changes; an error from a pod on the
   * node is thrown again on every call, as before.
   */
  private attachedVolumes(nodeInfo: NodeInfo, node: NodeVolumes): NonNullable<NodeVolumes['attached']> {
    const cached = node.attached;
    if (cached && cached.generation === nodeInfo.generation && this.handle.objects.isCurrent(cached.stamp))
      return cached;
    const stamp = this.handle.objects.storageStamp();
    const volumes: VolumeMap = new Map();
    for (const pi of nodeInfo.pods) {
      addVolumesOnNode(resolvePodCSIVolumes(this.handle.objects, pi.pod, false), node.csiNode, volumes);
    }
    const room = new Map(node.limits);
    for (const key of volumes.values()) {
      const left = room.get(key);
      if (left !== undefined) room.set(key, left - 1);
    }
    return (node.attached = { generation: nodeInfo.generation, stamp, volumes, room });
  }

  /** A driver without a CSIDriver object, or one that does not opt in, counts as installed. */
  private driverInstalledOnNode(driver: string, csiNode: CSINode | undefined): boolean {
    return !this.driverMustBeInstalled(driver) || driverOnNode(driver, csiNode);
  }

  /** The driver's CSIDriver opts in to keeping pods off nodes without the driver. */
  private driverMustBeInstalled(driver: string): boolean {
    const csiDriver = this.handle.objects.csiDrivers.get(driver) as
      { spec?: { preventPodSchedulingIfMissing?: boolean } } | undefined;
    return !!csiDriver?.spec?.preventPodSchedulingIfMissing;
  }
}

/** The node's CSINode lists the driver. */
function driverOnNode(driver: string, csiNode: CSINode | undefined): boolean {
  return (csiNode?.spec?.drivers ?? []).some((d) => d.name === driver);
}
