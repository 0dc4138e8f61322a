/**
 * VolumeZone (upstream v1.26): a bound PV's zone/region labels must contain the node's value.
 * Unbound WaitForFirstConsumer claims are skipped; VolumeBinding places them.
 */
import {
  LABEL_FAILURE_DOMAIN_BETA_REGION,
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_TOPOLOGY_REGION,
  LABEL_TOPOLOGY_ZONE,
  type Pod,
} from '@schedlab/k8s';
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

export class VolumeZone implements PreFilterPlugin, FilterPlugin {
  readonly name = PluginNames.VolumeZone;

  constructor(private readonly handle: Handle) {}

  preFilter(_state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    return skipUnlessPodHasVolume(pod, (v) => !!v.persistentVolumeClaim);
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
    const nodeConstraints = new Map<string, string>();
    for (const k of VOLUME_ZONE_LABELS) if (k in nodeLabels) nodeConstraints.set(k, nodeLabels[k]);
    // Nodes without zone labels accept any volume.
    if (nodeConstraints.size === 0) return null;
    const objects = this.handle.objects;
    const ns = namespaceOf(pod);
    for (const vol of volumes) {
      if (!vol.persistentVolumeClaim) continue;
      const pvcName = vol.persistentVolumeClaim.claimName;
      if (!pvcName) return Status.unresolvable('PersistentVolumeClaim had no name');
      const pvc = objects.persistentVolumeClaims.get(ns, pvcName);
      if (!pvc) return Status.unresolvable(`persistentvolumeclaim "${pvcName}" not found`);
      const pvName = pvc.spec?.volumeName ?? '';
      if (!pvName) {
        const scName = claimClass(pvc);
        if (!scName) return Status.unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
        const sc = objects.storageClasses.get(scName);
        if (!sc) return Status.unresolvable(`storageclass.storage.k8s.io "${scName}" not found`);
        if (!sc.volumeBindingMode)
          return Status.unresolvable(`VolumeBindingMode not set for StorageClass "${scName}"`);
        if (sc.volumeBindingMode === BINDING_MODE_WAIT_FOR_FIRST_CONSUMER) continue;
        return Status.unresolvable('PersistentVolume had no name');
      }
      const pv = objects.persistentVolumes.get(pvName);
      if (!pv) return Status.unresolvable(`persistentvolume "${pvName}" not found`);
      for (const [k, v] of Object.entries(pv.metadata?.labels ?? {})) {
        if (!VOLUME_ZONE_LABELS.has(k)) continue;
        const zones = labelZonesToSet(v);
        // Unparsable values are ignored, as upstream logs and skips them.
        if (!zones) continue;
        if (!zones.has(nodeConstraints.get(k) ?? ''))
          return Status.unresolvable(ERR_REASON_VOLUME_ZONE_CONFLICT);
      }
    }
    return null;
  }
}
