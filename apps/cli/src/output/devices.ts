/**
 * The DRA part of `schedlab simulate` and `explain`: the engine's device summary (per DeviceClass
 * and node after scheduling, SimulationResult.devices) as tables, and the devices each placed
 * pod's claims were allocated (PodSchedulingResult.claims, as records by claimDevicesOf).
 */
import type { ClaimDevice, DeviceClassSummary } from '@schedlab/scheduler';
import { formatTable } from './table';

const sum = (nodes: DeviceClassSummary['nodes'], pick: (n: DeviceClassSummary['nodes'][number]) => number) =>
  String(nodes.reduce((n, c) => n + pick(c), 0));

/**
 * "Devices": one row per class (nodes reaching any of its devices, and the counts over them); `wide`
 * gives one row per class and node. A device of a pool shared by several nodes counts for each.
 * UNAVAILABLE FREE: free devices the allocator gives no request at the release (counters used up,
 * feature off); TAINTED FREE: the other free ones only tolerating requests get.
 */
export function formatDeviceTables(devices: readonly DeviceClassSummary[], { wide = false } = {}): string[] {
  const lines = ['', wide ? 'Devices by class and node' : 'Devices by class'];
  if (wide) {
    const rows = devices.flatMap((c) =>
      c.nodes.length
        ? c.nodes.map((n) => [
            c.deviceClass,
            n.node,
            String(n.total),
            String(n.allocated),
            String(n.free),
            String(n.unavailableFree),
            String(n.taintedFree),
          ])
        : [[c.deviceClass, '<none>', '0', '0', '0', '0', '0']],
    );
    lines.push(
      ...formatTable(
        ['CLASS', 'NODE', 'TOTAL', 'ALLOCATED', 'FREE', 'UNAVAILABLE FREE', 'TAINTED FREE'],
        rows,
      ),
    );
  } else {
    const rows = devices.map((c) => [
      c.deviceClass,
      String(c.nodes.length),
      sum(c.nodes, (n) => n.total),
      sum(c.nodes, (n) => n.allocated),
      sum(c.nodes, (n) => n.free),
      sum(c.nodes, (n) => n.unavailableFree),
      sum(c.nodes, (n) => n.taintedFree),
    ]);
    lines.push(
      ...formatTable(
        ['CLASS', 'NODES', 'TOTAL', 'ALLOCATED', 'FREE', 'UNAVAILABLE FREE', 'TAINTED FREE'],
        rows,
      ),
    );
  }
  return lines;
}

/**
 * "driver/pool/device", as the allocation result names it; a device with binding conditions names
 * what PreBind waited for (the simulation takes the driver to report them met).
 */
export const deviceName = (d: ClaimDevice): string =>
  `${d.driver}/${d.pool}/${d.device}${d.adminAccess ? ' (admin access)' : ''}` +
  (d.bindingConditions?.length ? ` (bound once ${d.bindingConditions.join(', ')})` : '');

/** Under `-o wide`: every placed pod's claims with the devices they were allocated. */
export function formatPlacementDevices(
  placements: readonly { pod: string; devices?: ClaimDevice[] }[],
): string[] {
  const rows = placements.flatMap((p) =>
    (p.devices ?? []).map((d) => [p.pod, d.claim, d.request, deviceName(d)]),
  );
  if (rows.length === 0) return [];
  return ['', 'Devices allocated', ...formatTable(['POD', 'CLAIM', 'REQUEST', 'DEVICE'], rows)];
}

/** `explain`'s lines for a placed pod's claims (none when the pod has no allocated claim). */
export function formatClaimDevices(devices: readonly ClaimDevice[]): string[] {
  if (devices.length === 0) return [];
  return [
    'Devices (allocated at Reserve):',
    ...formatTable(
      ['CLAIM', 'REQUEST', 'DEVICE'],
      devices.map((d) => [d.claim, d.request, deviceName(d)]),
      '  ',
    ),
  ];
}
