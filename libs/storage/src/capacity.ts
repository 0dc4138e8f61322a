/**
 * How much a class can still provision in a zone: the caller's capacity model (class → zone →
 * quantity, less what PVs of that class already use there), else the CSIStorageCapacity objects
 * a storage-capacity-tracking driver publishes (taken as reported, as the scheduler does), else unlimited.
 */
import { selectorFromLabelSelector, tryParseQuantity, type Node, type StorageClass } from '@schedlab/k8s';
import type { ClusterObjects } from '@schedlab/scheduler';
import { volumeBinding } from '@schedlab/scheduler';
import type { TopologySegment } from './topology';
import { zoneOfVolume } from './topology';

/** StorageClass name → zone → capacity quantity (e.g. {"gp3": {"a": "1Ti"}}). */
export type CapacityModel = Record<string, Record<string, string>>;

/** Bytes provisioned by PVs of the class in the zone. */
export function provisionedBytes(
  objects: ClusterObjects,
  className: string,
  zone: string,
  nodes: readonly Node[],
): number {
  let sum = 0;
  for (const pv of objects.persistentVolumes.list()) {
    if (volumeBinding.pvHelpers.volumeClass(pv) !== className) continue;
    if (zoneOfVolume(pv, nodes) !== zone) continue;
    sum += tryParseQuantity((pv.spec?.capacity?.storage as string | undefined) ?? '0')?.value() ?? 0;
  }
  return sum;
}

/** Remaining bytes for the class in a segment; undefined means no limit is known. */
export function remainingBytes(
  sc: StorageClass,
  segment: TopologySegment,
  objects: ClusterObjects,
  nodes: readonly Node[],
  model: CapacityModel | undefined,
): number | undefined {
  const className = sc.metadata?.name ?? '';
  const modelled = model?.[className]?.[segment.zone];
  if (modelled !== undefined) {
    const total = tryParseQuantity(modelled)?.value() ?? 0;
    return total - provisionedBytes(objects, className, segment.zone, nodes);
  }
  const driver = objects.csiDrivers.get(sc.provisioner ?? '');
  if (driver?.spec?.storageCapacity !== true) return undefined;
  const segmentNodes = nodes.filter((n) => segment.nodes.includes(n.metadata?.name ?? ''));
  let best = 0;
  for (const cap of objects.csiStorageCapacities.list()) {
    if (cap.storageClassName !== className || !cap.nodeTopology) continue;
    const sel = selectorFromLabelSelector(cap.nodeTopology);
    if (!segmentNodes.some((n) => sel.matches(n.metadata?.labels))) continue;
    const limit = tryParseQuantity((cap.maximumVolumeSize ?? cap.capacity ?? '0') as string)?.value() ?? 0;
    best = Math.max(best, limit);
  }
  return best;
}

/** Validates a capacity model: every quantity must parse. Returns messages naming class and zone. */
export function capacityModelErrors(model: CapacityModel | undefined): string[] {
  const errors: string[] = [];
  for (const [cls, zones] of Object.entries(model ?? {})) {
    for (const [zone, q] of Object.entries(zones)) {
      if (!tryParseQuantity(q))
        errors.push(`capacityModel["${cls}"]["${zone}"]: quantity "${q}" does not parse`);
    }
  }
  return errors;
}

/**
 * What a storage-capacity-tracking driver republishes after provisioning a volume for a pod on
 * `node`: the CSIStorageCapacity objects of the volume's class whose topology covers the node
 * shrink by its size. The scheduler only reads what was last published, so an analysis that
 * provisions volume after volume must play the driver's part.
 */
export function consumeStorageCapacity(objects: ClusterObjects, pvName: string, node: Node): void {
  const pv = objects.persistentVolumes.get(pvName);
  if (!pv) return;
  const className = volumeBinding.pvHelpers.volumeClass(pv);
  const size = tryParseQuantity(String(pv.spec?.capacity?.storage ?? '0'))?.value() ?? 0;
  for (const cap of objects.csiStorageCapacities.list()) {
    if (cap.storageClassName !== className || !cap.nodeTopology) continue;
    if (!selectorFromLabelSelector(cap.nodeTopology).matches(node.metadata?.labels)) continue;
    const left = (tryParseQuantity(String(cap.capacity ?? '0'))?.value() ?? 0) - size;
    objects.csiStorageCapacities.set({ ...cap, capacity: String(Math.max(0, left)) });
  }
}
