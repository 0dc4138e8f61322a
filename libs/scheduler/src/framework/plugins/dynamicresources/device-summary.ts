/**
 * The devices' twin of the storage summary: per DeviceClass and node, how many devices the class
 * selects among those the node can reach (its own slices and the pools shared with it, newest
 * generation), how many of them the cluster's allocated claims hold, and how many are free. A
 * device of a pool shared by several nodes counts for each of them (what each could still get).
 * Admin-access allocations do not hold a device.
 *
 * Of the free devices, those the allocator cannot give to any request at this release, given the
 * claims already allocated, are counted apart (`unavailableFree`), by the allocator's own rules:
 * a device with binding conditions without DRADeviceBindingConditions, a device consuming
 * counters without DRAPartitionableDevices, a partition whose pool's counters the held devices
 * have used up (or overdrawn), and a shared device whose shares take all of one of its
 * capacities. The other free devices with an untolerated-by-default taint are counted apart too
 * (`taintedFree`), since whether those keep a device out depends on the request's tolerations.
 *
 * Consumable capacity (DRAConsumableCapacity on, a device with `allowMultipleAllocations`): its
 * shares do not hold it, as the allocator keeps offering it to further requests while their
 * capacity fits beside the shares (and a further share takes no counters), so it counts as free.
 * Without the gate the allocator takes an allocation with a share as holding the whole device,
 * and so does the summary.
 */
import { parseQuantity, type Node } from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import {
  bindingConditionsRefused,
  celMatches,
  consumesCounters,
  counterUse,
  countersHold,
  countersLeft,
  countersRefused,
  deviceKey,
  gatherPools,
  nodeMatches,
  type AllocatorFeatures,
  type Device,
  type DeviceClassObject,
  type Pool,
} from './allocator';
import { allocatableSlices, allocatedState } from './dynamic-resources';

export interface NodeDeviceCount {
  node: string;
  /** Devices of the class the node can reach. */
  total: number;
  /** Held by allocated claims (a consumable-capacity device's shares do not hold it). */
  allocated: number;
  free: number;
  /**
   * Of the free ones, those the allocator gives no request at this release given the claims
   * already allocated (feature off for the device, shared counters or capacity used up).
   */
  unavailableFree: number;
  /**
   * Of the free ones the allocator could give, carrying a NoSchedule or NoExecute taint (only
   * tolerating requests get them). `free - unavailableFree - taintedFree` any request can get.
   */
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
  const consumable = !!features.consumableCapacity;
  const held = allocatedState(objects.resourceClaims.list(), consumable);
  /** As the allocator: a device's counters are taken once it is allocated, whole or shared. */
  const heldForCounters = (id: string): boolean =>
    held.allocated.has(id) || held.shared.has(id) || held.capacity.has(id);
  // The allocator keeps a pool's counters left for the cycle, under its key (1.36: the pool name).
  const counters = new Map<string, Map<string, Map<string, bigint>>>();

  /** Whether the allocator refuses the free device to every request (see the file comment). */
  const unavailable = (pool: Pool, device: Device, id: string): boolean => {
    if (bindingConditionsRefused(device, features) || countersRefused(device, features)) return true;
    const shared =
      consumable && !!device.allowMultipleAllocations && (held.shared.has(id) || held.capacity.has(id));
    if (shared) {
      // Only a request taking none of a capacity its shares take whole could still fit.
      const taken = held.capacity.get(id);
      return Object.entries(device.capacity ?? {}).some(
        ([name, c]) => (taken?.get(name) ?? 0n) >= parseQuantity(c.value).nanos,
      );
    }
    return (
      consumesCounters(device) &&
      !countersHold(countersLeft(pool, features, heldForCounters, counters), counterUse(device))
    );
  };

  const out: DeviceClassSummary[] = classes.map((c) => ({ deviceClass: c.metadata?.name ?? '', nodes: [] }));
  for (const node of nodes) {
    const pools = gatherPools(slices, node, features).filter((p) => !p.incomplete && !p.invalid);
    classes.forEach((cls, i) => {
      const count: NodeDeviceCount = {
        node: node.metadata?.name ?? '',
        total: 0,
        allocated: 0,
        free: 0,
        unavailableFree: 0,
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
            const id = deviceKey(pool.driver, pool.pool, device.name);
            if (held.allocated.has(id)) {
              count.allocated++;
              continue;
            }
            count.free++;
            if (unavailable(pool, device, id)) count.unavailableFree++;
            else if (features.deviceTaints && (device.taints ?? []).some((t) => blocking(t.effect)))
              count.taintedFree++;
          }
      if (count.total > 0) out[i].nodes.push(count);
    });
  }
  return out;
}
