/**
 * DeviceTaintRules (DRADeviceTaintRules, on from 1.37): a cluster-scoped rule adds its one taint to
 * every device its selector names, as the scheduler's resource slice tracker does before the
 * allocator sees the slices. The selector matches by driver, pool and device name, each left out
 * meaning any; a rule without a selector taints nothing (an empty selector taints every device).
 */
import type { DeviceTaint, SliceObject } from './allocator';

export interface DeviceTaintSelector {
  driver?: string;
  pool?: string;
  device?: string;
}

export interface DeviceTaintRule {
  metadata?: { name?: string };
  spec?: { deviceSelector?: DeviceTaintSelector | null; taint?: DeviceTaint };
}

/**
 * The slices as the allocator sees them with the rules applied: a rule's taint goes after the
 * device's own taints, rules in the order given. Slices no rule touches are returned as they are.
 */
export function slicesWithTaintRules(
  slices: readonly SliceObject[],
  rules: readonly DeviceTaintRule[],
): SliceObject[] {
  const applicable: { selector: DeviceTaintSelector; taint: DeviceTaint }[] = [];
  for (const r of rules) {
    const selector = r.spec?.deviceSelector;
    const taint = r.spec?.taint;
    if (selector && taint) applicable.push({ selector, taint });
  }
  if (applicable.length === 0) return [...slices];
  return slices.map((slice) => {
    const spec = slice.spec;
    if (!spec?.devices?.length) return slice;
    let devices = spec.devices;
    for (const { selector, taint } of applicable) {
      if (selector.driver !== undefined && selector.driver !== spec.driver) continue;
      if (selector.pool !== undefined && selector.pool !== spec.pool?.name) continue;
      devices = devices.map((device) =>
        selector.device !== undefined && selector.device !== device.name
          ? device
          : { ...device, taints: [...(device.taints ?? []), taint] },
      );
    }
    return devices === spec.devices ? slice : { ...slice, spec: { ...spec, devices } };
  });
}
