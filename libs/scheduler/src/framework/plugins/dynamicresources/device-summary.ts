/**
 * The devices' twin of the storage summary: per DeviceClass and node, how many devices the class
 * selects among those the node can reach (its own slices and the pools shared with it, newest
 * generation), how many of them the cluster's allocated claims hold, and how many are free. A
 * device of a pool shared by several nodes counts for each of them (what each could still get).
 * Admin-access allocations do not hold a device; untolerated taints are counted apart, since
 * whether they keep a device out depends on the request.
 */
import type { Node } from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import {
  celMatches,
  deviceKey,
  gatherPools,
  nodeMatches,
  type AllocatorFeatures,
  type DeviceClassObject,
} from './allocator';
import { allocatableSlices, allocatedDevices } from './dynamic-resources';

export interface NodeDeviceCount {
  node: string;
  /** Devices of the class the node can reach. */
  total: number;
  /** Held by allocated claims. */
  allocated: number;
  free: number;
  /** Of the free ones, carrying a NoSchedule or NoExecute taint (only tolerating requests get them). */
  taintedFree: number;
}

export interface DeviceClassSummary {
  deviceClass: string;
  nodes: NodeDeviceCount[];
}

const blocking = (effect: string) => effect === 'NoSchedule' || effect === 'NoExecute';

/** Nodes without any device of a class are left out; classes without devices list no nodes. */
export function summarizeDevices(
  objects: ClusterObjects,
  nodes: readonly Node[],
  features: AllocatorFeatures,
): DeviceClassSummary[] {
  const classes = objects.deviceClasses.list() as DeviceClassObject[];
  if (classes.length === 0) return [];
  const slices = allocatableSlices(objects, features);
  const held = allocatedDevices(objects.resourceClaims.list());
  const out: DeviceClassSummary[] = classes.map((c) => ({ deviceClass: c.metadata?.name ?? '', nodes: [] }));
  for (const node of nodes) {
    const pools = gatherPools(slices, node, features).filter((p) => !p.incomplete && !p.invalid);
    classes.forEach((cls, i) => {
      const count: NodeDeviceCount = {
        node: node.metadata?.name ?? '',
        total: 0,
        allocated: 0,
        free: 0,
        taintedFree: 0,
      };
      for (const pool of pools)
        for (const slice of pool.slices)
          for (const device of slice.spec.devices ?? []) {
            // A slice selecting nodes per device reaches the node with some of its devices only.
            if (
              slice.spec.perDeviceNodeSelection &&
              !nodeMatches(node, device.nodeName, device.allNodes, device.nodeSelector)
            )
              continue;
            const selected = (cls.spec?.selectors ?? []).every(
              (s) => s.cel && celMatches(s.cel.expression, pool.driver, device) === true,
            );
            if (!selected) continue;
            count.total++;
            if (held.has(deviceKey(pool.driver, pool.pool, device.name))) count.allocated++;
            else {
              count.free++;
              if (features.deviceTaints && (device.taints ?? []).some((t) => blocking(t.effect)))
                count.taintedFree++;
            }
          }
      if (count.total > 0) out[i].nodes.push(count);
    });
  }
  return out;
}
