// Resource lists as exact Quantities (keeping their formats for messages), and the pod sums quota and LimitRange use.
import { Quantity, parseQuantity } from '@schedlab/k8s';
import type { Container, Pod } from '@schedlab/k8s';

export type QuantityList = Map<string, Quantity>;
type RawList = Record<string, string | number> | undefined | null;

export function toQuantityList(list: RawList): QuantityList {
  const out: QuantityList = new Map();
  if (list) for (const [k, v] of Object.entries(list)) out.set(k, parseQuantity(v));
  return out;
}

export function addLists(dst: QuantityList, src: QuantityList): void {
  for (const [k, v] of src) dst.set(k, dst.has(k) ? dst.get(k)!.add(v) : v);
}

function maxLists(dst: QuantityList, src: QuantityList): void {
  for (const [k, v] of src) if (!dst.has(k) || v.cmp(dst.get(k)!) > 0) dst.set(k, v);
}

function sumContainers(
  pod: Pod,
  pick: (c: Container) => RawList,
  overheadOnlyExisting: boolean,
  withOverhead: boolean,
): QuantityList {
  const out: QuantityList = new Map();
  for (const c of pod.spec?.containers ?? []) addLists(out, toQuantityList(pick(c)));
  // Sidecars (init containers with restartPolicy Always) keep running: they add to the app
  // containers and to every later init container's phase.
  const sidecars: QuantityList = new Map();
  const initPeak: QuantityList = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = toQuantityList(pick(c));
    if (c.restartPolicy === 'Always') {
      addLists(out, own);
      addLists(sidecars, own);
      maxLists(initPeak, sidecars);
    } else {
      const phase: QuantityList = new Map(own);
      addLists(phase, sidecars);
      maxLists(initPeak, phase);
    }
  }
  maxLists(out, initPeak);
  if (!withOverhead) return out;
  const overhead = toQuantityList(pod.spec?.overhead as RawList);
  for (const [k, v] of overhead)
    if (!overheadOnlyExisting || out.has(k)) out.set(k, out.has(k) ? out.get(k)!.add(v) : v);
  return out;
}

/** Sum of container requests, the largest init container per resource, plus overhead (quota counts it; LimitRanger does not). */
export function podRequestList(pod: Pod, withOverhead = true): QuantityList {
  return sumContainers(pod, (c) => c.resources?.requests as RawList, false, withOverhead);
}

/** Same for limits; overhead only adds to resources that have a limit. */
export function podLimitList(pod: Pod, withOverhead = true): QuantityList {
  return sumContainers(pod, (c) => c.resources?.limits as RawList, true, withOverhead);
}

/** `a=1,b=2Gi` with keys sorted, as the quota admission prints resource lists. */
export function prettyList(list: QuantityList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${list.get(k)!.toString()}`)
    .join(',');
}
