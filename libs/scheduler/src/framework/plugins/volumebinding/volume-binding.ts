/**
 * VolumeBinding (upstream v1.26): a pod's PVCs must be bound, or bindable on the node to an
 * existing PV or by dynamic provisioning (WaitForFirstConsumer). Reserve assumes the node's
 * decisions; the simulation then applies them with applyVolumeBindings.
 */
import {
  parseQuantity,
  type CSIDriver,
  type CSINode,
  type CSIStorageCapacity,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
} from '@schedlab/k8s';
import {
  ActionType,
  QueueingHint,
  asObjects,
  semanticallyEqual,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import type { CycleState, StateData } from '../../cycle-state';
import type {
  FilterPlugin,
  Handle,
  NodeScore,
  PreBindPlugin,
  PreFilterPlugin,
  PreFilterResult,
  ReservePlugin,
  PreScorePlugin,
  ScorePlugin,
} from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';
import type { VolumeBindingArgs } from './args';
import { STORAGE_CAPACITY_SCORING_GATE, VOLUME_CAPACITY_PRIORITY_GATE } from './args';
import { MAX_NODE_SCORE } from '../../interface';
import { MAX_CUSTOM_PRIORITY_SCORE, buildBrokenLinearFunction } from '../noderesources/strategies';

/** A resource list's storage in bytes (rounded up, as Quantity.Value()). */
function storageValue(list: Record<string, string | number> | undefined): number {
  const q = list?.storage;
  return q === undefined ? 0 : parseQuantity(q).value();
}
import {
  ERR_REASON_NODE_CONFLICT,
  ERR_REASON_PV_NODE_AFFINITY,
  ERR_REASON_PV_NOT_EXIST,
  PodVolumeClaims,
  PodVolumes,
  VolumeBinderError,
  findPodVolumes,
  getPodVolumeClaims,
} from './binder';
import type { VolumeBindingDecisions } from './apply';
import {
  claimClass,
  claimNameOfVolume,
  ephemeralClaimOwnershipError,
  namespaceOf,
  pvNodeAffinityMatches,
} from './pv-helpers';
import type { StorageStamp } from '../../../backend/cache/cluster-objects';

export const ERR_REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** Upstream's state key is the plugin name. */
export const VOLUME_BINDING_STATE_KEY = PluginNames.VolumeBinding;

export class VolumeBindingState implements StateData {
  /** The pod has no PVCs: Filter passes everything. */
  skip = false;
  claims?: PodVolumeClaims;
  /** node name → decisions taken by Filter on that node. */
  readonly podVolumesByNode = new Map<string, PodVolumes>();
  allBound = false;
  /** Set by Reserve: the decisions assumed for the chosen node. */
  reserved?: VolumeBindingDecisions;
  /**
   * When every claim is bound (nothing to bind on any node): each bound claim's PV, looked up once
   * per cycle rather than on every node (undefined: the PV does not exist), dated by `stamp`.
   * Filter then records no per-node decisions, which would all be empty.
   */
  boundVolumes?: { stamp: StorageStamp; pvs: (PersistentVolume | undefined)[] };

  // Upstream shares this state between clones: Filter results of preemption dry runs land in it too.
  clone(): StateData {
    return this;
  }
}

const MIGRATED_PLUGINS_ANNOTATION = 'storage.alpha.kubernetes.io/migrated-plugins';

/** The largest volume a CSIStorageCapacity admits: maximumVolumeSize when given, else capacity. */
function volumeLimit(c: CSIStorageCapacity): number | undefined {
  const q = c.maximumVolumeSize ?? c.capacity;
  return q === undefined ? undefined : parseQuantity(q).value();
}

export class VolumeBinding
  implements
    PreFilterPlugin,
    FilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ReservePlugin,
    PreBindPlugin,
    EnqueueExtensions
{
  readonly name = PluginNames.VolumeBinding;

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'storage.k8s.io/StorageClass', actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterStorageClassChange(pod, o, n),
      },
      {
        event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterPersistentVolumeClaimChange(pod, o, n),
      },
      { event: { resource: 'PersistentVolume', actionType: ActionType.Add | ActionType.Update } },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
      {
        event: { resource: 'storage.k8s.io/CSINode', actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterCSINodeChange(pod, o, n),
      },
      {
        event: { resource: 'storage.k8s.io/CSIDriver', actionType: ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterCSIDriverChange(pod, o, n),
      },
      {
        event: {
          resource: 'storage.k8s.io/CSIStorageCapacity',
          actionType: ActionType.Add | ActionType.Update,
        },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterCSIStorageCapacityChange(pod, o, n),
      },
    ];
  }

  /** A new CSINode, or one whose migrated in-tree plugins changed. */
  isSchedulableAfterCSINodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    if (oldObj == null) return QueueingHint.Queue;
    const [original, modified] = asObjects<CSINode>(oldObj, newObj);
    const migrated = (n: CSINode | undefined) => n?.metadata?.annotations?.[MIGRATED_PLUGINS_ANNOTATION];
    return migrated(original) !== migrated(modified) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** A claim of the pod's (by name in its namespace, ephemeral ones included) was added or changed. */
  isSchedulableAfterPersistentVolumeClaimChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [, pvc] = asObjects<PersistentVolumeClaim>(oldObj, newObj);
    if (namespaceOf(pvc) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
    for (const vol of pod.spec?.volumes ?? []) {
      if (claimNameOfVolume(pod, vol)?.name === pvc.metadata?.name) return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }

  /** A new StorageClass, or one whose allowedTopologies changed. */
  isSchedulableAfterStorageClassChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<StorageClass>(oldObj, newObj);
    if (!original) return QueueingHint.Queue;
    return semanticallyEqual(modified.allowedTopologies ?? [], original.allowedTopologies ?? [])
      ? QueueingHint.QueueSkip
      : QueueingHint.Queue;
  }

  /** A new capacity object, or a larger volume limit than before. */
  isSchedulableAfterCSIStorageCapacityChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<CSIStorageCapacity>(oldObj, newObj);
    if (!original) return QueueingHint.Queue;
    const before = volumeLimit(original);
    const after = volumeLimit(modified);
    return after !== undefined && (before === undefined || after > before)
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  /** A driver of the pod's inline CSI volumes stopped publishing storage capacity. */
  isSchedulableAfterCSIDriverChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<CSIDriver>(oldObj, newObj);
    for (const vol of pod.spec?.volumes ?? []) {
      if (!vol.csi || vol.csi.driver !== modified.metadata?.name) continue;
      if (original?.spec?.storageCapacity === true && modified.spec?.storageCapacity !== true)
        return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }
  private readonly capacityScoring: boolean;
  private readonly utilizationScore: (utilization: number) => number;

  constructor(
    readonly args: VolumeBindingArgs,
    private readonly handle: Handle,
  ) {
    this.capacityScoring =
      handle.features.enabled(VOLUME_CAPACITY_PRIORITY_GATE) ||
      handle.features.enabled(STORAGE_CAPACITY_SCORING_GATE);
    const shape = (args.shape ?? []).map((p) => ({
      utilization: p.utilization,
      score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
    }));
    this.utilizationScore = buildBrokenLinearFunction(shape);
  }

  /** Upstream podHasPVCs: every referenced claim must exist, not be lost or being deleted. */
  private podClaimsError(pod: Pod): { hasPVC: boolean; error?: string } {
    let hasPVC = false;
    const ns = namespaceOf(pod);
    for (const vol of pod.spec?.volumes ?? []) {
      const ref = claimNameOfVolume(pod, vol);
      if (!ref) continue;
      hasPVC = true;
      const pvc = this.handle.objects.persistentVolumeClaims.get(ns, ref.name);
      if (!pvc) {
        return {
          hasPVC,
          error: ref.ephemeral
            ? `waiting for ephemeral volume controller to create the persistentvolumeclaim "${ref.name}"`
            : `persistentvolumeclaim "${ref.name}" not found`,
        };
      }
      if (pvc.status?.phase === 'Lost') {
        return {
          hasPVC,
          error: `persistentvolumeclaim "${ref.name}" bound to non-existent persistentvolume "${pvc.spec?.volumeName ?? ''}"`,
        };
      }
      if (pvc.metadata?.deletionTimestamp)
        return { hasPVC, error: `persistentvolumeclaim "${ref.name}" is being deleted` };
      if (ref.ephemeral) {
        const err = ephemeralClaimOwnershipError(pod, pvc);
        if (err) return { hasPVC, error: err };
      }
    }
    return { hasPVC };
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const s = new VolumeBindingState();
    const { hasPVC, error } = this.podClaimsError(pod);
    if (error !== undefined) return { status: Status.unresolvable(error) };
    if (!hasPVC) {
      s.skip = true;
      state.write(VOLUME_BINDING_STATE_KEY, s);
      return { status: null };
    }
    let claims: PodVolumeClaims;
    try {
      claims = getPodVolumeClaims(pod, this.handle.objects);
    } catch (e) {
      return { status: Status.error(e as Error) };
    }
    if (claims.unboundClaimsImmediate.length > 0)
      return { status: Status.unresolvable(ERR_REASON_UNBOUND_IMMEDIATE) };
    s.claims = claims;
    state.write(VOLUME_BINDING_STATE_KEY, s);
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  /** No claims to bind: Filter accepts every node. */
  filterPassesAllNodes(state: CycleState): boolean {
    const s = state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY);
    return !!s && (s.skip || !s.claims);
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY);
    if (!s) return Status.error(`error reading "${VOLUME_BINDING_STATE_KEY}" from cycleState: not found`);
    if (s.skip || !s.claims) return null;
    if (s.claims.claimsToBind.length === 0) return this.filterBound(s, s.claims, nodeInfo);
    try {
      const { podVolumes, reasons } = findPodVolumes(s.claims, nodeInfo.node, this.handle.objects);
      if (reasons.length > 0) return this.conflict(reasons);
      s.podVolumesByNode.set(nodeInfo.name, podVolumes);
      return null;
    } catch (e) {
      if (e instanceof VolumeBinderError) return Status.error(e);
      throw e;
    }
  }

  /**
   * findPodVolumes for a pod whose claims are all bound: the first claim whose PV is missing or
   * whose PV's node affinity rejects the node decides; the decisions on every node are empty.
   */
  private filterBound(s: VolumeBindingState, claims: PodVolumeClaims, nodeInfo: NodeInfo): MaybeStatus {
    const objects = this.handle.objects;
    let bound = s.boundVolumes;
    if (!bound || !objects.isCurrent(bound.stamp)) {
      bound = {
        stamp: objects.storageStamp(),
        pvs: claims.boundClaims.map((pvc) => objects.persistentVolumes.get(pvc.spec?.volumeName ?? '')),
      };
      s.boundVolumes = bound;
    }
    const pvs = bound.pvs;
    for (let i = 0; i < pvs.length; i++) {
      const pv = pvs[i];
      if (!pv) return this.conflict([ERR_REASON_PV_NOT_EXIST]);
      if (pv.spec?.nodeAffinity?.required && !pvNodeAffinityMatches(pv, nodeInfo.node.metadata?.labels))
        return this.conflict([ERR_REASON_NODE_CONFLICT]);
    }
    return null;
  }

  /** Filter's status for a node with volume conflicts, worded as the release does. */
  private conflict(reasons: string[]): Status {
    if (!this.handle.features.behaviour.volumeNodeAffinityReasonNamesPersistentVolume)
      return Status.unresolvable(...reasons);
    return Status.unresolvable(
      ...reasons.map((r) => (r === ERR_REASON_NODE_CONFLICT ? ERR_REASON_PV_NODE_AFFINITY : r)),
    );
  }

  /**
   * From 1.30 (a PreScore point from then on): without a capacity scorer the plugin skips scoring.
   * With StorageCapacityScoring (default from 1.37) it always scores; with VolumeCapacityPriority
   * (before 1.33) only when some node got static bindings in Filter.
   */
  preScore(state: CycleState, _pod: Pod, _nodes: NodeInfo[]): MaybeStatus {
    if (this.handle.features.enabled(STORAGE_CAPACITY_SCORING_GATE)) return null;
    if (!this.handle.features.behaviour.volumeBindingPreScoreSkips) return null;
    if (!this.capacityScoring) return Status.skip();
    const s = state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY);
    for (const v of s?.podVolumesByNode.values() ?? []) if (v.staticBindings.length > 0) return null;
    return Status.skip();
  }

  /**
   * Without a capacity gate every node scores 0. Otherwise a node scores by how full the volumes
   * chosen for it would be, per storage class (requested / capacity through the shape), averaged
   * over the classes: the statically bound PVs when there are any (or without
   * StorageCapacityScoring), else, with StorageCapacityScoring, the claims to provision against the
   * CSIStorageCapacity that held each (per class the requests add up and the capacity is the last
   * provision's, as upstream assigns it; provisions without a capacity check are left out).
   */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    if (!this.capacityScoring) return [0, null];
    const podVolumes = state
      .read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY)
      ?.podVolumesByNode.get(nodeInfo.name);
    if (!podVolumes) return [0, null];
    const byClass = new Map<string, { requested: number; capacity: number }>();
    if (
      podVolumes.staticBindings.length > 0 ||
      !this.handle.features.enabled(STORAGE_CAPACITY_SCORING_GATE)
    ) {
      for (const { pv, pvc } of podVolumes.staticBindings) {
        const cls = pv.spec?.storageClassName ?? '';
        const entry = byClass.get(cls) ?? { requested: 0, capacity: 0 };
        entry.requested += storageValue(pvc.spec?.resources?.requests);
        entry.capacity += storageValue(pv.spec?.capacity);
        byClass.set(cls, entry);
      }
    } else {
      podVolumes.dynamicProvisions.forEach((pvc, i) => {
        const cap = podVolumes.nodeCapacities?.[i];
        if (!cap) return;
        const cls = pvc.spec?.storageClassName ?? claimClass(pvc);
        const entry = byClass.get(cls) ?? { requested: 0, capacity: 0 };
        entry.capacity = cap.capacity === undefined ? 0 : parseQuantity(cap.capacity).value();
        entry.requested += storageValue(pvc.spec?.resources?.requests);
        byClass.set(cls, entry);
      });
    }
    if (byClass.size === 0) return [0, null];
    let total = 0;
    for (const { requested, capacity } of byClass.values()) {
      const utilization =
        capacity === 0 || requested > capacity ? 100 : Math.trunc((requested * 100) / capacity);
      total += this.utilizationScore(utilization);
    }
    return [Math.round(total / byClass.size), null];
  }

  /**
   * Same numbers as `score`: a pod with nothing to score on any node (no static bindings and, with
   * StorageCapacityScoring, no claims to provision; every pod without claims) scores 0 everywhere,
   * without a lookup per node.
   */
  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const byNode = this.capacityScoring
      ? state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY)?.podVolumesByNode
      : undefined;
    const scoresProvisions = this.handle.features.enabled(STORAGE_CAPACITY_SCORING_GATE);
    let anyToScore = false;
    for (const v of byNode?.values() ?? []) {
      if (v.staticBindings.length > 0 || (scoresProvisions && v.dynamicProvisions.length > 0)) {
        anyToScore = true;
        break;
      }
    }
    for (let i = 0; i < nodes.length; i++) {
      scores[i].score = anyToScore ? this.score(state, pod, nodes[i])[0] : 0;
    }
    return null;
  }

  scoreExtensions(): undefined {
    return undefined;
  }

  reserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    const s = state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY);
    if (!s) return Status.error(`error reading "${VOLUME_BINDING_STATE_KEY}" from cycleState: not found`);
    const podVolumes = s.podVolumesByNode.get(nodeName);
    const node = this.handle.snapshot().get(nodeName)?.node;
    if (
      !podVolumes ||
      !node ||
      (podVolumes.staticBindings.length === 0 && podVolumes.dynamicProvisions.length === 0)
    ) {
      s.allBound = true;
      s.reserved = undefined;
      return null;
    }
    s.allBound = false;
    s.reserved = {
      node,
      staticBindings: podVolumes.staticBindings.map((b) => ({
        claimNamespace: namespaceOf(b.pvc),
        claimName: b.pvc.metadata?.name ?? '',
        pvName: b.pv.metadata?.name ?? '',
      })),
      dynamicProvisions: podVolumes.dynamicProvisions.map((pvc) => ({
        claimNamespace: namespaceOf(pvc),
        claimName: pvc.metadata?.name ?? '',
      })),
    };
    return null;
  }

  unreserve(state: CycleState, _pod: Pod, _nodeName: string): void {
    const s = state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY);
    if (s) s.reserved = undefined;
  }

  /**
   * Upstream PreBind writes the PVs/PVCs through the API and waits for the PV controller. Here the
   * simulation applies the reserved decisions with applyVolumeBindings; PreBind only checks they exist.
   */
  preBind(state: CycleState, _pod: Pod, nodeName: string): MaybeStatus {
    const s = state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY);
    if (!s) return Status.error(`error reading "${VOLUME_BINDING_STATE_KEY}" from cycleState: not found`);
    if (s.allBound) return null;
    if (!s.podVolumesByNode.has(nodeName)) return Status.error(`no pod volumes found for node "${nodeName}"`);
    return null;
  }
}

/** The decisions Reserve assumed in this cycle (undefined when the pod's claims were all bound). */
export function reservedVolumeBindings(state: CycleState): VolumeBindingDecisions | undefined {
  return state.read<VolumeBindingState>(VOLUME_BINDING_STATE_KEY)?.reserved;
}
