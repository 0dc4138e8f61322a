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
  /** Ignore pod-level `spec.resources.requests` (PodLevelResources off). */
  skipPodLevelResources?: boolean;
  /**
   * Count what the kubelet reports for a resized pod (InPlacePodVerticalScaling): container
   * statuses' `resources.requests` (actuated) and `allocatedResources`.
   */
  useStatusResources?: boolean;
  /**
   * How statuses count (1.37 and later): the maximum of the spec, actuated and allocated totals
   * of the whole pod, every container included; up to 1.36 the maximum was taken per container,
   * for app containers and sidecars that report `resources`.
   */
  aggregateStatusResources?: boolean;
  /** Pod-level `status.resources`/`status.allocatedResources` (InPlacePodLevelResourcesVerticalScaling). */
  podLevelStatusResources?: boolean;
}

interface ContainerStatusLike {
  name: string;
  allocatedResources?: ResourceList;
  resources?: { requests?: ResourceList };
}

interface PodStatusLike {
  containerStatuses?: ContainerStatusLike[];
  initContainerStatuses?: ContainerStatusLike[];
  conditions?: { type?: string; reason?: string }[];
  allocatedResources?: ResourceList;
  resources?: { requests?: ResourceList };
}

/** A resize the kubelet cannot carry out: then only what it actually runs counts. */
export function isPodResizeInfeasible(pod: Pod): boolean {
  const conditions = (pod.status as PodStatusLike | undefined)?.conditions ?? [];
  const pending = conditions.find((c) => c.type === 'PodResizePending');
  return pending?.reason === 'Infeasible';
}

function containerStatusOf(pod: Pod, name: string): ContainerStatusLike | undefined {
  const st = pod.status as PodStatusLike | undefined;
  return (
    st?.containerStatuses?.find((c) => c.name === name) ??
    st?.initContainerStatuses?.find((c) => c.name === name)
  );
}

function maxOf(...lists: (NanoList | undefined)[]): NanoList {
  const out: NanoList = new Map();
  for (const l of lists) if (l) maxInto(out, l);
  return out;
}

function containerRequests(c: Container, nonMissing: NanoList | undefined): NanoList {
  return withNonMissing(toNanos(c.resources?.requests as ResourceList), nonMissing);
}

function withNonMissing(reqs: NanoList, nonMissing: NanoList | undefined): NanoList {
  if (nonMissing) for (const [k, v] of nonMissing) if (!reqs.has(k)) reqs.set(k, v);
  return reqs;
}

type ContainerSource = (c: Container) => NanoList | undefined;

/**
 * Sum of app containers and sidecars, or the worst init phase if larger: while init container i
 * runs, the sidecars (restartPolicy Always) started before it keep running, so its footprint is
 * its own request plus theirs.
 */
function aggregateContainers(pod: Pod, source: ContainerSource, nonMissing: NanoList | undefined): NanoList {
  const spec = pod.spec;
  const containers = spec?.containers ?? [];
  // Most pods: one app container and no init containers; its list is the total.
  if (containers.length === 1 && !spec?.initContainers?.length)
    return withNonMissing(new Map(source(containers[0]) ?? []), nonMissing);
  const reqs: NanoList = new Map();
  for (const c of containers) addInto(reqs, withNonMissing(new Map(source(c) ?? []), nonMissing));
  const sidecars: NanoList = new Map();
  const initMax: NanoList = new Map();
  for (const c of spec?.initContainers ?? []) {
    const r = withNonMissing(new Map(source(c) ?? []), nonMissing);
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
  return reqs;
}

/** Up to 1.36: a container reporting `resources` counts max(spec, actuated, allocated) by itself. */
function perContainerStatusSource(pod: Pod, infeasible: boolean): ContainerSource {
  return (c) => {
    const spec = toNanos(c.resources?.requests as ResourceList);
    const isInit = (pod.spec?.initContainers ?? []).includes(c);
    if (isInit && c.restartPolicy !== 'Always') return spec;
    const cs = containerStatusOf(pod, c.name);
    if (!cs?.resources) return spec;
    const actuated = toNanos(cs.resources.requests);
    const allocated = toNanos(cs.allocatedResources);
    return infeasible ? maxOf(actuated, allocated) : maxOf(spec, actuated, allocated);
  };
}

/** Whether the status carries any allocated or actuated resources, pod-level or per container. */
function reportsResources(st: PodStatusLike | undefined): boolean {
  if (!st) return false;
  if (st.allocatedResources || st.resources) return true;
  const reports = (cs: ContainerStatusLike) =>
    cs.allocatedResources !== undefined || cs.resources !== undefined;
  return (st.containerStatuses?.some(reports) ?? false) || (st.initContainerStatuses?.some(reports) ?? false);
}

function statusAwareContainerRequests(
  pod: Pod,
  opts: PodRequestsOptions,
  nonMissing: NanoList | undefined,
): NanoList {
  const infeasible = isPodResizeInfeasible(pod);
  if (!opts.aggregateStatusResources)
    return aggregateContainers(pod, perContainerStatusSource(pod, infeasible), nonMissing);

  const specOf: ContainerSource = (c) => toNanos(c.resources?.requests as ResourceList);
  const specTotal = aggregateContainers(pod, specOf, nonMissing);
  const st = pod.status as PodStatusLike | undefined;
  // Nothing reported: the allocated and actuated totals below would be the spec total again.
  if (!infeasible && !reportsResources(st)) return specTotal;
  let allocated: NanoList;
  let actuated: NanoList;
  if (opts.podLevelStatusResources && st?.allocatedResources && st.resources?.requests) {
    // Pod-level status already holds the totals over all containers.
    allocated = toNanos(st.allocatedResources);
    actuated = toNanos(st.resources.requests);
  } else {
    const allocatedOf: ContainerSource = (c) => {
      const cs = containerStatusOf(pod, c.name);
      if (cs?.allocatedResources) return toNanos(cs.allocatedResources);
      return infeasible ? undefined : specOf(c);
    };
    const actuatedOf: ContainerSource = (c) => {
      const cs = containerStatusOf(pod, c.name);
      if (cs?.resources?.requests) return toNanos(cs.resources.requests);
      if (cs?.allocatedResources) return toNanos(cs.allocatedResources);
      return infeasible ? undefined : specOf(c);
    };
    allocated = aggregateContainers(pod, allocatedOf, nonMissing);
    actuated = aggregateContainers(pod, actuatedOf, nonMissing);
  }
  return infeasible ? maxOf(actuated, allocated) : maxOf(specTotal, actuated, allocated);
}

function podLevelRequests(pod: Pod, opts: PodRequestsOptions): NanoList | undefined {
  const podLevel = (pod.spec as { resources?: { requests?: ResourceList } } | undefined)?.resources?.requests;
  if (!podLevel || !Object.keys(podLevel).some(isSupportedPodLevelResource)) return undefined;
  let effective = toNanos(podLevel);
  const st = pod.status as PodStatusLike | undefined;
  if (opts.podLevelStatusResources && opts.useStatusResources && st?.resources) {
    const spec = isPodResizeInfeasible(pod) ? undefined : effective;
    effective = maxOf(spec, toNanos(st.resources.requests), toNanos(st.allocatedResources));
  }
  return effective;
}

export function podRequestsNanos(pod: Pod, opts: PodRequestsOptions): NanoList {
  let nonMissing: NanoList | undefined;
  if (opts.nonMissingContainerRequests && Object.keys(opts.nonMissingContainerRequests).length > 0) {
    nonMissing = new Map();
    for (const [k, v] of Object.entries(opts.nonMissingContainerRequests))
      nonMissing.set(k, resourceAmountToNanos(k, v));
  }
  const spec = pod.spec;
  const reqs = opts.useStatusResources
    ? statusAwareContainerRequests(pod, opts, nonMissing)
    : aggregateContainers(pod, (c) => containerRequests(c, undefined), nonMissing);

  if (!opts.skipPodLevelResources) {
    const podLevel = podLevelRequests(pod, opts);
    if (podLevel) for (const [k, v] of podLevel) if (isSupportedPodLevelResource(k)) reqs.set(k, v);
  }
  if (!opts.excludeOverhead && spec?.overhead) addInto(reqs, toNanos(spec.overhead as ResourceList));
  return reqs;
}

/**
 * Whether per-container defaults for `names` (PodRequestsOptions.nonMissingContainerRequests)
 * would change nothing: every container and init container requests each of them, and no
 * resize status (reported resources, an infeasible resize) makes other amounts count.
 */
export function containersRequestAll(pod: Pod, names: readonly string[]): boolean {
  // An infeasible resize counts only what the status reports, and defaults fill what it lacks.
  if (isPodResizeInfeasible(pod) || reportsResources(pod.status as PodStatusLike | undefined)) return false;
  const requestsAll = (c: Container) => {
    const requests = c.resources?.requests as ResourceList;
    return requests !== undefined && requests !== null && names.every((n) => n in requests);
  };
  return (
    (pod.spec?.containers ?? []).every(requestsAll) && (pod.spec?.initContainers ?? []).every(requestsAll)
  );
}

/** Whether `spec.resources.requests` sets a resource that pod-level resources may set. */
export function hasPodLevelRequests(pod: Pod): boolean {
  const podLevel = (pod.spec as { resources?: { requests?: ResourceList } } | undefined)?.resources?.requests;
  return !!podLevel && Object.keys(podLevel).some(isSupportedPodLevelResource);
}

/**
 * Effective requests of a pod: max(app containers + sidecars, worst init phase), pod-level
 * requests overriding, plus overhead. Values: cpu millicores, others whole units (rounded up).
 */
export function podRequests(pod: Pod, opts: PodRequestsOptions = {}): Map<string, number> {
  const single = singleContainerRequests(pod, opts);
  if (single) return single;
  const out = new Map<string, number>();
  for (const [k, v] of podRequestsNanos(pod, opts)) out.set(k, nanosToResourceAmount(k, v));
  return out;
}

/**
 * podRequests of the commonest pod, without the exact nanos sums: one container, no init
 * containers, overhead, pod-level requests or resize status. Its requests are the container's,
 * and the per-container defaults fill what it lacks. Undefined for any other pod.
 */
function singleContainerRequests(pod: Pod, opts: PodRequestsOptions): Map<string, number> | undefined {
  const spec = pod.spec;
  const containers = spec?.containers;
  if (containers?.length !== 1 || spec?.initContainers?.length) return undefined;
  if (!opts.excludeOverhead && spec?.overhead) return undefined;
  if (!opts.skipPodLevelResources && hasPodLevelRequests(pod)) return undefined;
  if (
    opts.useStatusResources &&
    (isPodResizeInfeasible(pod) || reportsResources(pod.status as PodStatusLike | undefined))
  )
    return undefined;
  const out = resourceListAmounts(containers[0].resources?.requests as ResourceList);
  const defaults = opts.nonMissingContainerRequests;
  if (defaults) for (const k of Object.keys(defaults)) if (!out.has(k)) out.set(k, defaults[k]);
  return out;
}

/**
 * Amounts of the quantity strings converted so far, in millicores (cpu) and in whole units (the
 * rest): a dump repeats a handful ("500m", "512Mi") over thousands of pods, and each conversion
 * divides BigInts. Bounded, since a dump may also hold many distinct amounts.
 */
const milliAmounts = new Map<string, number>();
const unitAmounts = new Map<string, number>();
const AMOUNTS_LIMIT = 4096;

function listedAmount(resourceName: string, value: string | number): number {
  if (typeof value !== 'string') return nanosToResourceAmount(resourceName, parseQuantity(value).nanos);
  const amounts = resourceName === 'cpu' ? milliAmounts : unitAmounts;
  let amount = amounts.get(value);
  if (amount === undefined) {
    amount = nanosToResourceAmount(resourceName, parseQuantity(value).nanos);
    if (amounts.size >= AMOUNTS_LIMIT) amounts.clear();
    amounts.set(value, amount);
  }
  return amount;
}

/** A resource list (requests, capacity, ...) in resourceAmount units. */
export function resourceListAmounts(
  list: Record<string, string | number> | undefined | null,
): Map<string, number> {
  const out = new Map<string, number>();
  if (list) for (const k of Object.keys(list)) out.set(k, listedAmount(k, list[k]));
  return out;
}

/** status.allocatable (falling back to status.capacity, as API defaulting does) in resourceAmount units. */
export function nodeAllocatable(node: Node): Map<string, number> {
  const alloc = node.status?.allocatable ?? node.status?.capacity;
  return resourceListAmounts(alloc as ResourceList);
}
