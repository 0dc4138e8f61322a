// Effective pod requests (component-helpers resource.PodRequests) and resource-name helpers
// (pkg/apis/core/v1/helper). Amounts use resourceAmount units: cpu millicores, others whole units.
import type { Container, Node, Pod } from './types';
import { nanosToResourceAmount, parseQuantity, resourceAmountToNanos } from './quantity';
import { isQualifiedName } from './validation';

/** Scheduler defaults for containers that omit cpu/memory requests (schedutil). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024; // 209715200

const REQUESTS_PREFIX = 'requests.';
const NATIVE_PREFIX = 'kubernetes.io/';
const HUGEPAGES_PREFIX = 'hugepages-';
const ATTACHABLE_VOLUMES_PREFIX = 'attachable-volumes-';

export function isPrefixedNativeResource(name: string): boolean {
  return name.includes(NATIVE_PREFIX);
}

export function isNativeResource(name: string): boolean {
  return !name.includes('/') || isPrefixedNativeResource(name);
}

/** Extended resources are non-native, domain-qualified names (e.g. nvidia.com/gpu). */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  // Must still be a qualified name once turned into a quota name.
  return isQualifiedName(REQUESTS_PREFIX + name);
}

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGEPAGES_PREFIX);
}

export function isAttachableVolumeResourceName(name: string): boolean {
  return name.startsWith(ATTACHABLE_VOLUMES_PREFIX);
}

/** Resources the scheduler tracks in its scalar-resource map. */
export function isScalarResourceName(name: string): boolean {
  return (
    isExtendedResourceName(name) ||
    isHugePageResourceName(name) ||
    isPrefixedNativeResource(name) ||
    isAttachableVolumeResourceName(name)
  );
}

/** Resources that pod-level `spec.resources` may set (PodLevelResources). */
export function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || isHugePageResourceName(name);
}

type ResourceList = Record<string, string | number> | undefined;
/** Exact working sums, in nanos, so rounding happens once at the end like upstream. */
type NanoList = Map<string, bigint>;

function toNanos(list: ResourceList): NanoList {
  const out: NanoList = new Map();
  if (list) for (const k of Object.keys(list)) out.set(k, parseQuantity(list[k]).nanos);
  return out;
}

function addInto(dst: NanoList, src: NanoList): void {
  for (const [k, v] of src) dst.set(k, (dst.get(k) ?? 0n) + v);
}

function maxInto(dst: NanoList, src: NanoList): void {
  for (const [k, v] of src) {
    const cur = dst.get(k);
    if (cur === undefined || v > cur) dst.set(k, v);
  }
}

export interface PodRequestsOptions {
  /** Per-container defaults (resourceAmount units) for resources the container does not request. */
  nonMissingContainerRequests?: Record<string, number>;
  excludeOverhead?: boolean;
  /** Ignore pod-level `spec.resources.requests` (PodLevelResources). */
  skipPodLevelResources?: boolean;
}

function containerRequests(c: Container, nonMissing: NanoList | undefined): NanoList {
  const reqs = toNanos(c.resources?.requests as ResourceList);
  if (nonMissing) for (const [k, v] of nonMissing) if (!reqs.has(k)) reqs.set(k, v);
  return reqs;
}

function podRequestsNanos(pod: Pod, opts: PodRequestsOptions): NanoList {
  let nonMissing: NanoList | undefined;
  if (opts.nonMissingContainerRequests && Object.keys(opts.nonMissingContainerRequests).length > 0) {
    nonMissing = new Map();
    for (const [k, v] of Object.entries(opts.nonMissingContainerRequests)) nonMissing.set(k, resourceAmountToNanos(k, v));
  }
  const spec = pod.spec;
  const reqs: NanoList = new Map();
  for (const c of spec?.containers ?? []) addInto(reqs, containerRequests(c, nonMissing));

  // While init container i runs, the sidecars (restartPolicy Always) started before it keep running,
  // so its footprint is its own request plus theirs; sidecars also run alongside app containers.
  const sidecars: NanoList = new Map();
  const initMax: NanoList = new Map();
  for (const c of spec?.initContainers ?? []) {
    const r = containerRequests(c, nonMissing);
    if (c.restartPolicy === 'Always') {
      addInto(reqs, r);
      addInto(sidecars, r);
      maxInto(initMax, sidecars);
    } else {
      const running: NanoList = new Map(r);
      addInto(running, sidecars);
      maxInto(initMax, running);
    }
  }
  maxInto(reqs, initMax);

  if (!opts.skipPodLevelResources) {
    const podLevel = (spec as { resources?: { requests?: ResourceList } } | undefined)?.resources?.requests;
    if (podLevel) {
      for (const [k, v] of toNanos(podLevel)) if (isSupportedPodLevelResource(k)) reqs.set(k, v);
    }
  }
  if (!opts.excludeOverhead && spec?.overhead) addInto(reqs, toNanos(spec.overhead as ResourceList));
  return reqs;
}

/**
 * Effective requests of a pod: max(app containers + sidecars, worst init phase), pod-level
 * requests overriding, plus overhead. Values: cpu millicores, others whole units (rounded up).
 */
export function podRequests(pod: Pod, opts: PodRequestsOptions = {}): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of podRequestsNanos(pod, opts)) out.set(k, nanosToResourceAmount(k, v));
  return out;
}

/** A resource list (requests, capacity, ...) in resourceAmount units. */
export function resourceListAmounts(list: Record<string, string | number> | undefined | null): Map<string, number> {
  const out = new Map<string, number>();
  if (list) for (const k of Object.keys(list)) out.set(k, nanosToResourceAmount(k, parseQuantity(list[k]).nanos));
  return out;
}

/** status.allocatable (falling back to status.capacity, as API defaulting does) in resourceAmount units. */
export function nodeAllocatable(node: Node): Map<string, number> {
  const alloc = node.status?.allocatable ?? node.status?.capacity;
  return resourceListAmounts(alloc as ResourceList);
}
