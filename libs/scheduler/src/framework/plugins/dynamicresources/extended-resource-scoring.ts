/**
 * Resource scoring (NodeResourcesFit, NodeResourcesBalancedAllocation) of an extended resource
 * a node does not advertise but a DeviceClass maps (DRAExtendedResource): the node's capacity is
 * the number of devices of the class its slices offer (every slice for the node, the class's CEL
 * selectors, no pool or taint checks), and what is allocated the number of those any claim holds
 * (whole or shared), as upstream's scorer counts them.
 */
import type { Node } from '@schedlab/k8s';
import type { Handle } from '../../interface';
import type { NodeInfo } from '../../types';
import { celMatches, deviceKey, nodeMatches, type DeviceClassObject, type SliceObject } from './allocator';
import { allocatableSlices, allocatedState, allocatorFeatures } from './dynamic-resources';
import {
  draExtendedResourceEnabled,
  extendedResourceClasses,
  isDRAExtendedResourceName,
} from './extended-resources';

/** Per node and resource: [capacity, allocated]; undefined when nothing is backed by DRA. */
export type DraResourceTotals = (nodeInfo: NodeInfo, resourceName: string) => readonly [number, number];

/**
 * The scoring pass's view of DRA (upstream's draPreScoreState): built only when a configured
 * resource maps to a class, from the claims and slices as they are now.
 */
export function draResourceTotals(
  handle: Handle,
  resources: readonly { name: string }[],
): DraResourceTotals | undefined {
  if (!draExtendedResourceEnabled(handle.features) || handle.objects.deviceClasses.size === 0)
    return undefined;
  const classes = extendedResourceClasses(handle.objects.deviceClasses);
  if (!resources.some((r) => isDRAExtendedResourceName(r.name) && classes.has(r.name))) return undefined;
  const objects = handle.objects;
  const slices = allocatableSlices(objects, allocatorFeatures(handle.features));
  const { allocated, shared } = allocatedState(objects.resourceClaims.list(), true);
  const celCache = new Map<string, boolean | Error>();
  const cache = new Map<string, readonly [number, number]>();
  return (nodeInfo, resourceName) => {
    const cls = classes.get(resourceName) as DeviceClassObject | undefined;
    if (!cls) return [0, 0];
    const key = `${nodeInfo.name}\u0000${resourceName}`;
    let totals = cache.get(key);
    if (!totals) {
      totals = countDevices(nodeInfo.node, cls, slices, allocated, shared, celCache);
      cache.set(key, totals);
    }
    return totals;
  };
}

function countDevices(
  node: Node,
  cls: DeviceClassObject,
  slices: readonly SliceObject[],
  allocated: ReadonlySet<string>,
  shared: ReadonlySet<string>,
  celCache: Map<string, boolean | Error>,
): readonly [number, number] {
  const nodeName = node.metadata?.name ?? '';
  const expressions = (cls.spec?.selectors ?? []).flatMap((s) => (s.cel ? [s.cel.expression] : []));
  let capacity = 0;
  let inUse = 0;
  for (const slice of slices) {
    const spec = slice.spec;
    if (!spec) continue;
    let devices = spec.devices ?? [];
    if (spec.perDeviceNodeSelection) {
      devices = devices.filter(
        (d) =>
          d.allNodes ||
          (!!d.nodeName && d.nodeName === nodeName) ||
          (!!d.nodeSelector && nodeMatches(node, d.nodeName, d.allNodes, d.nodeSelector)),
      );
    } else if (!spec.allNodes && spec.nodeName !== nodeName && spec.nodeSelector) {
      if (!nodeMatches(node, spec.nodeName, spec.allNodes, spec.nodeSelector)) continue;
    } else if (!spec.allNodes && spec.nodeName && spec.nodeName !== nodeName) {
      continue;
    }
    for (const device of devices) {
      let matches = true;
      for (const expression of expressions) {
        const ck = `${expression}\u0000${spec.driver}\u0000${spec.pool.name}\u0000${device.name}`;
        let m = celCache.get(ck);
        if (m === undefined) celCache.set(ck, (m = celMatches(expression, spec.driver, device)));
        // Upstream gives up on the resource for this node at a selector error.
        if (m instanceof Error) return [0, 0];
        if (!m) {
          matches = false;
          break;
        }
      }
      if (!matches) continue;
      capacity++;
      const id = deviceKey(spec.driver, spec.pool.name, device.name);
      if (allocated.has(id) || shared.has(id)) inUse++;
    }
  }
  return [capacity, inUse];
}
