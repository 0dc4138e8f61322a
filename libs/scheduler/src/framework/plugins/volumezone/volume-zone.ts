/**
 * VolumeZone (upstream v1.26): a bound PV's zone/region labels must contain the node's value.
 * Unbound WaitForFirstConsumer claims are skipped; VolumeBinding places them. From 1.29 a PV's
 * beta label is matched against the node's GA label when the node has no beta one.
 */
import {
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_TOPOLOGY_REGION,
  LABEL_TOPOLOGY_ZONE,
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
import type { ClusterObjects, StorageStamp } from '../../../backend/cache/cluster-objects';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, Handle, PreFilterPlugin, PreFilterResult } from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { skipUnlessPodHasVolume } from '../helper/volume-prefilter';
import { PluginNames } from '../names';
import { BINDING_MODE_WAIT_FOR_FIRST_CONSUMER, claimClass, namespaceOf } from '../volumebinding/pv-helpers';

export const ERR_REASON_VOLUME_ZONE_CONFLICT = 'node(s) had no available volume zone';

/** Beta and GA zone/region labels. */
export const VOLUME_ZONE_LABELS: ReadonlySet<string> = new Set([
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_TOPOLOGY_ZONE,
  LABEL_TOPOLOGY_REGION,
]);

/** The GA label a PV's beta zone/region label is read as on a node without the beta one (1.29+). */
const GA_LABEL_OF_BETA: Readonly<Record<string, string>> = {
  [LABEL_FAILURE_DOMAIN_BETA_ZONE]: LABEL_TOPOLOGY_ZONE,
  [LABEL_FAILURE_DOMAIN_BETA_REGION]: LABEL_TOPOLOGY_REGION,
};

/** Upstream LabelZonesToSet: `__` separates zones; an empty member makes the value unparsable (undefined). */
export function labelZonesToSet(value: string): Set<string> | undefined {
  const out = new Set<string>();
  for (const part of value.split('__').join(',').split(',')) {
    const z = part.trim();
    if (z === '') return undefined;
    out.add(z);
  }
  return out;
}

/** A PV's zone and region labels with their parsed zone sets, in upstream's label order. */
function pvTopologies(pv: PersistentVolume): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const key of [
    LABEL_FAILURE_DOMAIN_BETA_ZONE,
    LABEL_FAILURE_DOMAIN_BETA_REGION,
    LABEL_TOPOLOGY_ZONE,
    LABEL_TOPOLOGY_REGION,
  ]) {
    const value = pv.metadata?.labels?.[key];
    if (value === undefined) continue;
    const zones = labelZonesToSet(value);
    if (zones) out.push([key, [...zones].sort()]);
  }
  return out;
}

export class VolumeZone implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.VolumeZone;

  constructor(private readonly handle: Handle) {}

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'storage.k8s.io/StorageClass', actionType: ActionType.Add },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterStorageClassAdded(pod, o, n),
      },
      { event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
      {
        event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterPersistentVolumeClaimChange(pod, o, n),
      },
      {
        event: { resource: 'PersistentVolume', actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterPersistentVolumeChange(pod, o, n),
      },
    ];
  }

  /** A claim the pod mounts (same namespace and name) was created or changed. */
  isSchedulableAfterPersistentVolumeClaimChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [, pvc] = asObjects<PersistentVolumeClaim>(oldObj, newObj);
    if (!pvc || namespaceOf(pvc) !== namespaceOf(pod)) return QueueingHint.QueueSkip;
    const wanted = (pod.spec?.volumes ?? []).some(
      (v) => v.persistentVolumeClaim?.claimName === pvc.metadata?.name,
    );
    return wanted ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** A WaitForFirstConsumer class appeared (the pod's claim may have been waiting for it). */
  isSchedulableAfterStorageClassAdded(_pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
    const [, sc] = asObjects<StorageClass>(undefined, newObj);
    return sc.volumeBindingMode === BINDING_MODE_WAIT_FOR_FIRST_CONSUMER
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  /** A new PV, or one whose zone or region labels changed. */
  isSchedulableAfterPersistentVolumeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<PersistentVolume>(oldObj, newObj);
    if (!original) return QueueingHint.Queue;
    return semanticallyEqual(pvTopologies(original), pvTopologies(modified))
      ? QueueingHint.QueueSkip
      : QueueingHint.Queue;
  }

  /**
   * Registered from 1.27 (kubernetes#114149, #114896): the claims are resolved here, so a claim
   * or volume that cannot be read rejects the pod before any node is tried (a claim bound to a
   * deleted PV reads `persistentvolume "x" not found`, where 1.26's Filter left VolumeBinding to
   * say `node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)` per node), and
   * a pod none of whose volumes carries a zone or region label skips the Filter.
   */
  preFilter(_state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const noClaims = skipUnlessPodHasVolume(pod, (v) => !!v.persistentVolumeClaim);
    if (noClaims.status) return noClaims;
    const steps = this.podVolumes(pod);
    const failed = steps.find((step) => step.error !== undefined);
    if (failed) return { status: Status.unresolvable(failed.error!) };
    return { status: steps.some((step) => step.zones.length > 0) ? null : Status.skip() };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  /** Without volumes the pod needs nothing from any node. */
  filterPassesAllNodes(_state: CycleState, pod: Pod): boolean {
    return (pod.spec?.volumes ?? []).length === 0;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const volumes = pod.spec?.volumes ?? [];
    if (volumes.length === 0) return null;
    const nodeLabels = nodeInfo.node.metadata?.labels ?? {};
    // Nodes without zone labels accept any volume.
    let zoned = false;
    for (const k of VOLUME_ZONE_LABELS) if (k in nodeLabels) zoned = true;
    if (!zoned) return null;
    const translateBeta = this.handle.features.behaviour.volumeZoneMatchesBetaLabelOnGaNode;
    for (const step of this.podVolumes(pod)) {
      if (step.error !== undefined) return Status.unresolvable(step.error);
      for (const [k, zones] of step.zones) {
        const key = k in nodeLabels || !translateBeta ? k : (GA_LABEL_OF_BETA[k] ?? k);
        if (!zones.has(key in nodeLabels ? nodeLabels[key] : ''))
          return Status.unresolvable(ERR_REASON_VOLUME_ZONE_CONFLICT);
      }
    }
    return null;
  }

  private last?: { pod: Pod; stamp: StorageStamp; steps: VolumeStep[] };

  /** The pod's claims resolved once per pod and attempt (they do not depend on the node). */
  private podVolumes(pod: Pod): VolumeStep[] {
    const objects = this.handle.objects;
    const last = this.last;
    if (last && last.pod === pod && objects.isCurrent(last.stamp)) return last.steps;
    const stamp = objects.storageStamp();
    const steps = resolveVolumeSteps(objects, pod);
    this.last = { pod, stamp, steps };
    return steps;
  }
}

/**
 * What Filter checks for one of the pod's claims, in volume order: an error (the same on every
 * node), or the zone/region labels of its PV with the zones each allows (unparsable values left
 * out, as upstream logs and skips them).
 */
interface VolumeStep {
  error?: string;
  zones: [label: string, zones: Set<string>][];
}

function resolveVolumeSteps(objects: ClusterObjects, pod: Pod): VolumeStep[] {
  const steps: VolumeStep[] = [];
  const ns = namespaceOf(pod);
  const fail = (error: string) => {
    steps.push({ error, zones: [] });
    return steps;
  };
  for (const vol of pod.spec?.volumes ?? []) {
    if (!vol.persistentVolumeClaim) continue;
    const pvcName = vol.persistentVolumeClaim.claimName;
    if (!pvcName) return fail('PersistentVolumeClaim had no name');
    const pvc = objects.persistentVolumeClaims.get(ns, pvcName);
    if (!pvc) return fail(`persistentvolumeclaim "${pvcName}" not found`);
    const pvName = pvc.spec?.volumeName ?? '';
    if (!pvName) {
      const scName = claimClass(pvc);
      if (!scName) return fail('PersistentVolumeClaim had no pv name and storageClass name');
      const sc = objects.storageClasses.get(scName);
      if (!sc) return fail(`storageclass.storage.k8s.io "${scName}" not found`);
      if (!sc.volumeBindingMode) return fail(`VolumeBindingMode not set for StorageClass "${scName}"`);
      if (sc.volumeBindingMode === BINDING_MODE_WAIT_FOR_FIRST_CONSUMER) continue;
      return fail('PersistentVolume had no name');
    }
    const pv = objects.persistentVolumes.get(pvName);
    if (!pv) return fail(`persistentvolume "${pvName}" not found`);
    const zones: VolumeStep['zones'] = [];
    for (const [k, v] of Object.entries(pv.metadata?.labels ?? {})) {
      if (!VOLUME_ZONE_LABELS.has(k)) continue;
      const set = labelZonesToSet(v);
      if (set) zones.push([k, set]);
    }
    steps.push({ zones });
  }
  return steps;
}
