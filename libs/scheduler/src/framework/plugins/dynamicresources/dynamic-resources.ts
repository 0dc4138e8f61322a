/**
 * DynamicResources (upstream plugins/dynamicresources): a pod's spec.resourceClaims must resolve
 * to existing ResourceClaims before it is scheduled; a claim already allocated keeps the pod on the
 * nodes its allocation selects; claims still to allocate go through the structured-parameters
 * allocator (allocator.ts) on each node, Reserve records the allocation and the pod's reservation
 * in the simulated claims, and Score (1.35+) favours earlier firstAvailable subrequests.
 */
import {
  compileNodeSelector,
  isScalarResourceName,
  parseQuantity,
  podRequests,
  type CompiledNodeSelector,
  type Pod,
} from '@schedlab/k8s';
import { addConsumed, type ConsumedCapacity } from './capacity';
import { compareVersions, type FeatureSet } from '../../../features';
import {
  allocate,
  AllocatorError,
  deviceKey,
  FailedOnNode,
  FIRST_AVAILABLE_MAX_SIZE,
  type AllocationResult,
  type AllocatorFeatures,
  type AllocatorInput,
  type ClaimObject,
  type DeviceClassObject,
  type SliceObject,
} from './allocator';
import { isClaimForPod, podUid, type PodClaimEntry, type PodClaimStatus } from './claim-templates';
import { defaultNormalizeScore } from '../helper/normalize-score';
import type { ClusterObjects, ResourceClaim } from '../../../backend/cache/cluster-objects';
import { slicesWithTaintRules, type DeviceTaintRule } from './taint-rules';
import {
  CLAIM_FINALIZER,
  SPECIAL_CLAIM_NAME,
  draExtendedResourceEnabled,
  extendedResourceClaimName,
  extendedResourceClasses,
  extendedResourceRequests,
  findExtendedResourceClaim,
  inMemoryExtendedResourceClaim,
  isDRAExtendedResourceName,
  type ContainerExtendedResourceRequest,
} from './extended-resources';
import type { CycleState, StateData } from '../../cycle-state';
import {
  ActionType,
  QueueingHint,
  asObjects,
  semanticallyEqual,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import type {
  FilterPlugin,
  Handle,
  NodeToStatusMap,
  PostFilterPlugin,
  PostFilterResult,
  PreEnqueuePlugin,
  PreFilterPlugin,
  PreFilterResult,
  ReservePlugin,
  PreBindPlugin,
  ScorePlugin,
  NodeScore,
  UniformScore,
} from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';
import { DEFAULT_START_TIME_BASE } from '../../../simulation/clock';
import {
  bindingTimeoutMs,
  defaultDynamicResourcesArgs,
  DYNAMIC_RESOURCES_ARGS_KIND,
  DYNAMIC_RESOURCES_ARGS_SINCE,
  validateDynamicResourcesArgs,
  type DynamicResourcesArgs,
} from './args';

/**
 * The pod's claims, or why they cannot be used yet in upstream's words. A template whose claim
 * the controller deliberately did not generate is skipped; one it did generate must be owned by the
 * pod (resourceclaim.IsForPod).
 */
export function resolvePodClaims(pod: Pod, handle: Handle): { claims: ResourceClaim[]; reason?: string } {
  const spec = pod.spec as { resourceClaims?: PodClaimEntry[] } | undefined;
  const claims: ResourceClaim[] = [];
  const namespace = pod.metadata?.namespace ?? 'default';
  const podRef = `${namespace}/${pod.metadata?.name ?? ''}`;
  const statuses =
    (pod.status as { resourceClaimStatuses?: PodClaimStatus[] } | undefined)?.resourceClaimStatuses ?? [];
  for (const c of spec?.resourceClaims ?? []) {
    let claimName: string | undefined;
    let mustCheckOwner = false;
    if (c.resourceClaimName) {
      claimName = c.resourceClaimName;
    } else if (c.resourceClaimTemplateName) {
      const generated = statuses.find((s) => s.name === c.name);
      if (!generated) return { claims, reason: `pod "${podRef}": ResourceClaim not created yet` };
      if (!generated.resourceClaimName) continue;
      claimName = generated.resourceClaimName;
      mustCheckOwner = true;
    } else {
      return {
        claims,
        reason: `pod "${podRef}", spec.resourceClaim "${c.name}": none of the supported fields are set`,
      };
    }
    const claim = handle.objects.resourceClaims.get(namespace, claimName);
    if (!claim) return { claims, reason: `could not find ResourceClaim "${namespace}/${claimName}"` };
    if (claim.metadata?.deletionTimestamp)
      return { claims, reason: `resourceclaim "${claimName}" is being deleted` };
    if (mustCheckOwner && !isClaimForPod(pod, claim))
      return {
        claims,
        reason: handle.features.behaviour.draClaimOwnerMessageCapitalized
          ? `ResourceClaim ${namespace}/${claimName} was not created for Pod ${podRef} (Pod is not owner)`
          : `ResourceClaim ${namespace}/${claimName} was not created for pod ${podRef} (pod is not owner)`,
      };
    claims.push(claim);
  }
  return { claims };
}

/** Why a claim still to allocate cannot be, before looking at nodes (upstream PreFilter). */
function unallocatableReason(claim: ResourceClaim, handle: Handle): string | undefined {
  const classExists = (className: string | undefined, requestName: string): string | undefined =>
    className && !handle.objects.deviceClasses.get(className)
      ? `request ${requestName}: device class ${className} does not exist`
      : undefined;
  for (const request of claim.spec?.devices?.requests ?? []) {
    const exactly = request.exactly?.deviceClassName ?? request.deviceClassName;
    if (exactly !== undefined) {
      const reason = classExists(exactly, request.name);
      if (reason) return reason;
    } else if (request.firstAvailable) {
      for (const sub of request.firstAvailable) {
        const reason = classExists(sub.deviceClassName, `${request.name}/${sub.name}`);
        if (reason) return reason;
      }
    } else {
      return `resource claim ${claim.metadata?.namespace ?? 'default'}/${claim.metadata?.name}, request ${request.name}: unknown request type`;
    }
  }
  return undefined;
}

/** Back-compatible form: only the reason. */
export function unresolvedClaimReason(pod: Pod, handle: Handle): string | undefined {
  return resolvePodClaims(pod, handle).reason;
}

/** The cluster's slices as the allocator sees them: with DeviceTaintRules' taints when the release applies them. */
export function allocatableSlices(objects: ClusterObjects, features: AllocatorFeatures): SliceObject[] {
  const slices = objects.resourceSlices.list() as unknown as SliceObject[];
  return features.deviceTaintRules
    ? slicesWithTaintRules(slices, objects.deviceTaintRules.list() as DeviceTaintRule[])
    : slices;
}

/** The allocator variant and features of the release (upstream's scheduler feature flags). */
export function allocatorFeatures(features: FeatureSet): AllocatorFeatures {
  const v = features.version;
  return {
    adminAccess: compareVersions(v, '1.34') >= 0,
    prioritizedList: compareVersions(v, '1.34') >= 0,
    sortPools: compareVersions(v, '1.36') >= 0,
    legacyPools: compareVersions(v, '1.35') < 0,
    deviceTaints: features.enabled('DRADeviceTaints'),
    deviceTaintRules: features.enabled('DRADeviceTaints') && features.enabled('DRADeviceTaintRules'),
    partitionableDevices: features.enabled('DRAPartitionableDevices'),
    consumableCapacity: features.enabled('DRAConsumableCapacity'),
    fractionalCapacityRange:
      features.enabled('DRAConsumableCapacity') && features.enabled('DRAFractionalCapacityRange'),
    strictCapacity: compareVersions(v, '1.37') >= 0,
    countersByPoolName: compareVersions(v, '1.37') < 0,
    deviceBindingConditions: features.enabled('DRADeviceBindingConditions'),
    claimLimitPerRequest: compareVersions(v, '1.37') >= 0,
  };
}

const STATE_KEY = PluginNames.DynamicResources;
const MAX_RESERVED_FOR = 256;

/** Written by PreFilter: the pod's claims, what is allocated, and Filter's allocations per node. */
class DynamicResourcesState implements StateData {
  /** Filter's allocation results per node, in the order of the claims to allocate. */
  readonly nodeAllocations = new Map<string, AllocationResult[]>();
  /** Filter: the pod's extended-resource claim as the node needs it, with the container mappings. */
  readonly nodeExtendedClaims = new Map<string, NodeExtendedClaim>();
  /** Reserve: the claims as they were before (none: written at Reserve), to put back on Unreserve. */
  reserved?: { claim: ResourceClaim; before?: ResourceClaim }[];
  /** Reserve: the pod's status.extendedResourceClaimStatus once its extended-resource claim is written. */
  extendedResourceClaimStatus?: ExtendedResourceClaimStatus;
  /** Reserve: why PreBind fails writing the pod's extended-resource claim status. */
  extendedPreBindError?: string;
  /** Filter: allocated claims whose node selector did not match some node (PostFilter input). */
  readonly unavailableClaims = new Set<number>();
  constructor(
    readonly hasClaims: boolean,
    readonly claims: readonly ResourceClaim[] = [],
    readonly allocatedOn: readonly (CompiledNodeSelector | undefined)[] = [],
    readonly toAllocate: readonly number[] = [],
    readonly allocator?: AllocatorInput,
    /** DRAExtendedResource: the pod's extended-resource claim (the last of `claims`) and requests. */
    readonly extended?: ExtendedState,
    /** Allocated claims whose binding failed or timed out: unavailable on every node. */
    readonly bindingFailed: ReadonlySet<number> = new Set(),
  ) {}
  clone(): StateData {
    return this;
  }
  /** The number of the pod's own claims (spec.resourceClaims), before the extended-resource claim. */
  get userClaims(): number {
    return this.extended ? this.claims.length - 1 : this.claims.length;
  }
}

interface ExtendedState {
  /** In memory (SPECIAL_CLAIM_NAME) or the one written in an earlier cycle. */
  claim: ResourceClaim;
  /** The pod's scalar requests (upstream's Resource.ScalarResources). */
  scalar: Map<string, number>;
}

interface NodeExtendedClaim {
  claim: ResourceClaim;
  mappings: ContainerExtendedResourceRequest[];
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

interface AllocatedDeviceStatus {
  driver: string;
  pool: string;
  device: string;
  shareID?: string;
  conditions?: Condition[];
}

interface ClaimStatus {
  allocation?: AllocationResult & { allocationTimestamp?: string };
  reservedFor?: { resource?: string; name?: string; uid?: string }[];
  devices?: AllocatedDeviceStatus[];
}

const statusOf = (claim: ResourceClaim): ClaimStatus => (claim.status ?? {}) as ClaimStatus;

/**
 * Upstream's isClaimReadyForBinding: every device with binding conditions has a status whose
 * conditions are all True, in the results' order (a device without status, or with a condition not
 * yet True, answers "not ready" before later devices are looked at); a True binding failure
 * condition is a failure.
 */
export function claimBindingState(claim: ResourceClaim): 'ready' | 'pending' | 'failed' {
  const status = statusOf(claim);
  if (!status.allocation) return 'pending';
  for (const r of status.allocation.devices?.results ?? []) {
    if (!r.bindingConditions?.length) continue;
    const device = (status.devices ?? []).find(
      (d) => d.driver === r.driver && d.pool === r.pool && d.device === r.device,
    );
    if (!device) return 'pending';
    const conditionTrue = (type: string): boolean =>
      (device.conditions ?? []).some((c) => c.type === type && c.status === 'True');
    if ((r.bindingFailureConditions ?? []).some(conditionTrue)) return 'failed';
    if (!r.bindingConditions.every(conditionTrue)) return 'pending';
  }
  return 'ready';
}

/**
 * Upstream's isClaimTimeout: a device waits on conditions and allocationTimestamp + timeout (the
 * profile's DynamicResourcesArgs.bindingTimeout) is past.
 */
function bindingTimedOut(claim: ResourceClaim, nowMs: number, timeoutMs: number): boolean {
  const allocation = statusOf(claim).allocation;
  const at = allocation?.allocationTimestamp ? Date.parse(allocation.allocationTimestamp) : Number.NaN;
  if (Number.isNaN(at)) return false;
  return (
    (allocation!.devices?.results ?? []).some((r) => r.bindingConditions !== undefined) &&
    at + timeoutMs < nowMs
  );
}

const isoTime = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The claim as the simulation takes the driver to leave it once PreBind has written it: the
 * allocation stamped with the time (as PreBind does with binding conditions on), and every binding
 * condition of its devices reported True (the simulation has no driver: it assumes the binding
 * succeeds, which is what PreBind waits for).
 */
function boundByDriver(claim: ResourceClaim, nowMs: number): ResourceClaim {
  const status = statusOf(claim);
  if (!status.allocation) return claim;
  const allocation = status.allocation.allocationTimestamp
    ? status.allocation
    : { ...status.allocation, allocationTimestamp: isoTime(nowMs) };
  const devices = [...(status.devices ?? [])];
  for (const r of allocation.devices?.results ?? []) {
    if (!r.bindingConditions?.length) continue;
    const i = devices.findIndex((d) => d.driver === r.driver && d.pool === r.pool && d.device === r.device);
    const device = i >= 0 ? devices[i] : { driver: r.driver, pool: r.pool, device: r.device };
    const conditions = [...(device.conditions ?? [])];
    for (const type of r.bindingConditions) {
      const met: Condition = {
        type,
        status: 'True',
        reason: 'SimulatedDriver',
        message: 'the simulation assumes the driver met the binding condition',
        lastTransitionTime: isoTime(nowMs),
      };
      const j = conditions.findIndex((c) => c.type === type);
      if (j < 0) conditions.push(met);
      else if (conditions[j].status !== 'True') conditions[j] = met;
    }
    if (i >= 0) devices[i] = { ...device, conditions };
    else devices.push({ ...device, conditions });
  }
  return { ...claim, status: { ...(claim.status ?? {}), allocation, devices } } as ResourceClaim;
}

/** The devices the allocations of all claims hold (admin access does not count as in use). */
export function allocatedDevices(claims: readonly ResourceClaim[]): Set<string> {
  return allocatedState(claims, false).allocated;
}

/**
 * What allocated claims hold: devices held whole, and with consumable capacity the devices
 * holding shares (a shareID) with the capacity those shares take.
 */
export function allocatedState(
  claims: readonly ResourceClaim[],
  consumableCapacity: boolean,
): { allocated: Set<string>; shared: Set<string>; capacity: Map<string, ConsumedCapacity> } {
  const allocated = new Set<string>();
  const shared = new Set<string>();
  const capacity = new Map<string, ConsumedCapacity>();
  for (const c of claims)
    for (const r of statusOf(c).allocation?.devices?.results ?? []) {
      if (r.adminAccess) continue;
      const id = deviceKey(r.driver, r.pool, r.device);
      if (consumableCapacity && r.shareID) {
        shared.add(id);
        if (r.consumedCapacity) {
          let entry = capacity.get(id);
          if (!entry) capacity.set(id, (entry = new Map()));
          addConsumed(
            entry,
            new Map(Object.entries(r.consumedCapacity).map(([k, v]) => [k, parseQuantity(v)])),
            1n,
          );
        }
        continue;
      }
      allocated.add(id);
    }
  return { allocated, shared, capacity };
}

/** Whether a container, init container or the overhead names a resource the classes map. */
function namesMappedResource(pod: Pod, classes: ReadonlyMap<string, unknown>): boolean {
  const spec = pod.spec;
  for (const c of [...(spec?.initContainers ?? []), ...(spec?.containers ?? [])])
    for (const name of Object.keys(c.resources?.requests ?? {})) if (classes.has(name)) return true;
  return Object.keys(spec?.overhead ?? {}).some((name) => classes.has(name));
}

/** A claim's reservation for the pod (status.reservedFor entry). */
function podReference(pod: Pod): { resource: string; name: string; uid: string } {
  return { resource: 'pods', name: pod.metadata?.name ?? '', uid: podUid(pod) };
}

/** The pod's status.extendedResourceClaimStatus. */
export interface ExtendedResourceClaimStatus {
  requestMappings: ContainerExtendedResourceRequest[];
  resourceClaimName: string;
}

/** After Reserve: the pod's status.extendedResourceClaimStatus, when its extended-resource claim was written. */
export function reservedExtendedResourceClaimStatus(
  state: CycleState,
): ExtendedResourceClaimStatus | undefined {
  return state.read<DynamicResourcesState>(STATE_KEY)?.extendedResourceClaimStatus;
}

function reservedForPod(claim: ResourceClaim, pod: Pod): boolean {
  const uid = podUid(pod);
  return (statusOf(claim).reservedFor ?? []).some(
    (r) => r.resource === 'pods' && r.name === pod.metadata?.name && (r.uid ?? uid) === uid,
  );
}

/** "request driver/pool/device" (" admin" with admin access), per allocated claim "ns/name". */
export type ClaimAllocationSummary = Record<string, string[]>;

/**
 * With binding conditions: ` bindingConditions=a,b` and ` bindingFailureConditions=c` follow the
 * device (what PreBind waited for, and what would have failed the binding).
 */
export function describeAllocation(a: AllocationResult): string[] {
  return (a.devices?.results ?? []).map((r) => {
    let line = `${r.request} ${r.driver}/${r.pool}/${r.device}${r.adminAccess ? ' admin' : ''}`;
    if (r.bindingConditions?.length) line += ` bindingConditions=${r.bindingConditions.join(',')}`;
    if (r.bindingFailureConditions?.length)
      line += ` bindingFailureConditions=${r.bindingFailureConditions.join(',')}`;
    return line;
  });
}

/** The pod's claims with their allocations after Reserve (for results and explanations). */
export function reservedClaimAllocations(state: CycleState): ClaimAllocationSummary | undefined {
  const s = state.read<DynamicResourcesState>(STATE_KEY);
  if (!s?.reserved?.length) return undefined;
  const out: ClaimAllocationSummary = {};
  for (const { claim } of s.reserved) {
    const a = statusOf(claim).allocation;
    if (a)
      out[`${claim.metadata?.namespace ?? 'default'}/${claim.metadata?.name ?? ''}`] = describeAllocation(a);
  }
  return Object.keys(out).length ? out : undefined;
}

export class DynamicResources
  implements
    PreEnqueuePlugin,
    PreFilterPlugin,
    FilterPlugin,
    PostFilterPlugin,
    ReservePlugin,
    PreBindPlugin,
    ScorePlugin,
    EnqueueExtensions
{
  readonly name = PluginNames.DynamicResources;

  /** DynamicResourcesArgs.bindingTimeout in ms (600 s unless the profile sets it). */
  private readonly bindingTimeoutMs: number;

  /**
   * `args` are the profile's defaulted DynamicResourcesArgs. filterTimeout is accepted and
   * validated but not applied: Schedlab's allocator runs every Filter to the end.
   */
  constructor(
    private readonly handle: Handle,
    args?: DynamicResourcesArgs,
  ) {
    this.bindingTimeoutMs = bindingTimeoutMs(args);
  }

  /** DRADeviceBindingConditions (and DRAResourceClaimDeviceStatus, taken as on). */
  private get bindingConditions(): boolean {
    return this.handle.features.enabled('DRADeviceBindingConditions');
  }

  private nowMs(): number {
    return this.handle.now ? this.handle.now() : Date.parse(DEFAULT_START_TIME_BASE);
  }

  /** Upstream's registrations with DynamicResourceAllocation on (none without it). */
  eventsToRegister(): ClusterEventWithHint[] {
    if (!this.handle.features.enabled('DynamicResourceAllocation')) return [];
    return [
      {
        event: {
          resource: 'Node',
          actionType: ActionType.Add | ActionType.UpdateNodeLabel | ActionType.UpdateNodeAllocatable,
        },
      },
      {
        event: {
          resource: 'resource.k8s.io/ResourceClaim',
          actionType: ActionType.Add | ActionType.Update | ActionType.Delete,
        },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterClaimChange(pod, o, n),
      },
      {
        event: { resource: 'TargetPod', actionType: ActionType.UpdatePodGeneratedResourceClaim },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterTargetPodUpdate(pod, o, n),
      },
      { event: { resource: 'resource.k8s.io/DeviceClass', actionType: ActionType.Add | ActionType.Update } },
      {
        event: { resource: 'resource.k8s.io/ResourceSlice', actionType: ActionType.Add | ActionType.Update },
      },
    ];
  }

  /**
   * A deleted claim matters only if it held devices; a claim freed of its allocation may free
   * devices for anyone; otherwise only the pod's own claims (as the cluster now has them) count,
   * when added or when their status changed.
   */
  isSchedulableAfterClaimChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<ResourceClaim>(oldObj, newObj);
    if (!modified) {
      if (!original) return QueueingHint.Queue;
      return statusOf(original).allocation ? QueueingHint.Queue : QueueingHint.QueueSkip;
    }
    const { claims, reason } = resolvePodClaims(pod, this.handle);
    if (reason !== undefined) return QueueingHint.QueueSkip;
    if (original && statusOf(original).allocation && !statusOf(modified).allocation)
      return QueueingHint.Queue;
    const uid = modified.metadata?.uid;
    if (!claims.some((c) => c.metadata?.uid === uid)) return QueueingHint.QueueSkip;
    if (!original) return QueueingHint.Queue;
    return semanticallyEqual(original.status ?? {}, modified.status ?? {})
      ? QueueingHint.QueueSkip
      : QueueingHint.Queue;
  }

  /** The pod's generated claims were recorded: queue once they all resolve. */
  isSchedulableAfterTargetPodUpdate(_pod: Pod, _oldObj: unknown, newObj: unknown): QueueingHint {
    const [, modified] = asObjects<Pod>(undefined, newObj);
    return resolvePodClaims(modified, this.handle).reason === undefined
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  preEnqueue(pod: Pod): MaybeStatus {
    const reason = unresolvedClaimReason(pod, this.handle);
    return reason === undefined ? null : Status.unresolvable(reason);
  }

  /**
   * Skip for pods without claims, as upstream. Otherwise the claims must exist, allocated ones
   * contribute their node selectors (and must be reservable), the classes of those still to
   * allocate must exist, and the allocator is set up with the devices in use.
   */
  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const podClaims = (pod.spec as { resourceClaims?: unknown[] } | undefined)?.resourceClaims ?? [];
    state.write(STATE_KEY, new DynamicResourcesState(false));
    let userClaims: ResourceClaim[] = [];
    if (podClaims.length > 0) {
      const resolved = resolvePodClaims(pod, this.handle);
      if (resolved.reason !== undefined) return { status: Status.unresolvable(resolved.reason) };
      userClaims = resolved.claims;
    }
    const extended = this.preFilterExtendedResources(pod);
    if (userClaims.length === 0 && !extended) return { status: Status.skip() };
    const claims = extended ? [...userClaims, extended.claim] : userClaims;
    const allocatedOn: (CompiledNodeSelector | undefined)[] = [];
    const toAllocate: number[] = [];
    const bindingFailed = new Set<number>();
    for (const [i, claim] of claims.entries()) {
      const allocation = statusOf(claim).allocation;
      if (allocation) {
        if ((statusOf(claim).reservedFor ?? []).length >= MAX_RESERVED_FOR && !reservedForPod(claim, pod))
          return { status: Status.unresolvable('resourceclaim in use') };
        allocatedOn.push(allocation.nodeSelector ? compileNodeSelector(allocation.nodeSelector) : undefined);
        // Upstream's Filter: a claim whose binding failed, or still waits past the binding timeout,
        // is unavailable on every node, so PostFilter may deallocate it.
        if (this.bindingConditions) {
          const binding = claimBindingState(claim);
          if (
            binding === 'failed' ||
            (binding === 'pending' && bindingTimedOut(claim, this.nowMs(), this.bindingTimeoutMs))
          )
            bindingFailed.add(i);
        }
        continue;
      }
      allocatedOn.push(undefined);
      toAllocate.push(i);
      // The extended-resource claim gets its requests per node in Filter.
      if (extended && claim === extended.claim) continue;
      const why = unallocatableReason(claim, this.handle);
      if (why) return { status: Status.unresolvable(why) };
    }
    let allocator: AllocatorInput | undefined;
    if (toAllocate.length > 0) {
      const objects = this.handle.objects;
      const features = allocatorFeatures(this.handle.features);
      allocator = {
        features,
        ...allocatedState(objects.resourceClaims.list(), !!features.consumableCapacity),
        classes: (name) => objects.deviceClasses.get(name) as DeviceClassObject | undefined,
        slices: allocatableSlices(objects, features),
      };
    }
    state.write(
      STATE_KEY,
      new DynamicResourcesState(true, claims, allocatedOn, toAllocate, allocator, extended, bindingFailed),
    );
    return { status: null };
  }

  /**
   * DRAExtendedResource: when one of the pod's extended-resource requests maps to a device class,
   * the pod's extended-resource claim joins its claims: the one written in an earlier cycle, or one
   * kept in memory without requests until Filter knows what the node must provide.
   */
  private preFilterExtendedResources(pod: Pod): ExtendedState | undefined {
    if (!draExtendedResourceEnabled(this.handle.features)) return undefined;
    const objects = this.handle.objects;
    if (objects.deviceClasses.size === 0) return undefined;
    const classes = extendedResourceClasses(objects.deviceClasses);
    // Most pods name no mapped resource at all: no need to add up their requests.
    if (!namesMappedResource(pod, classes)) return undefined;
    const requests = podRequests(pod);
    let mapped = false;
    for (const [name, v] of requests)
      if (v !== 0 && isDRAExtendedResourceName(name) && classes.has(name)) mapped = true;
    if (!mapped) return undefined;
    const scalar = new Map<string, number>();
    for (const [name, v] of requests) if (isScalarResourceName(name)) scalar.set(name, v);
    const claim =
      findExtendedResourceClaim(pod, objects.resourceClaims.list()) ?? inMemoryExtendedResourceClaim(pod);
    return { claim, scalar };
  }

  /**
   * What the pod's extended-resource claim must ask for on the node: the mapped resources the node
   * does not advertise (device plugin) in its allocatable. A claim written in an earlier cycle
   * cannot be used again (PostFilter deletes it); a resource neither mapped nor advertised does not fit.
   */
  private filterExtendedResources(
    s: DynamicResourcesState,
    pod: Pod,
    nodeInfo: NodeInfo,
  ): { node?: NodeExtendedClaim; status?: Status } {
    const ext = s.extended;
    if (!ext) return {};
    if (ext.claim.spec?.devices?.requests)
      return { status: Status.unresolvable('cannot schedule extended resource claim') };
    const classes = extendedResourceClasses(this.handle.objects.deviceClasses);
    const viaDRA: string[] = [];
    for (const [name, quantity] of ext.scalar) {
      if (!isDRAExtendedResourceName(name) || quantity === 0) continue;
      const advertised = nodeInfo.allocatable.scalar.has(name);
      const allocatable = nodeInfo.allocatable.scalar.get(name) ?? 0;
      if (classes.has(name) && allocatable === 0) viaDRA.push(name);
      else if (!advertised) return { status: Status.unresolvable('cannot fit resource') };
    }
    if (s.userClaims === 0 && viaDRA.length === 0) return {};
    if (statusOf(ext.claim).allocation) return {};
    const { requests, mappings } = extendedResourceRequests(pod, viaDRA, (name) => classes.get(name));
    const claim = {
      ...ext.claim,
      spec: { ...(ext.claim.spec ?? {}), devices: { ...(ext.claim.spec?.devices ?? {}), requests } },
    } as ResourceClaim;
    return { node: { claim, mappings } };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  /**
   * Allocated claims need their allocation's node selector to match; the claims to allocate
   * must all get devices on the node. Upstream's messages and order: the allocator runs first.
   */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    if (!s?.hasClaims) return null;
    const ext = this.filterExtendedResources(s, pod, nodeInfo);
    if (ext.status) return ext.status;
    // Only extended resources, all from device plugins here: NodeResourcesFit checked them.
    if (!ext.node && s.userClaims === 0) return null;
    const extIndex = s.extended ? s.claims.length - 1 : -1;
    const unavailable: number[] = [];
    s.allocatedOn.forEach((selector, i) => {
      if ((selector && !selector.match(nodeInfo.node)) || s.bindingFailed.has(i)) unavailable.push(i);
    });
    if (s.allocator) {
      let results: AllocationResult[] | null;
      try {
        results = allocate(
          s.allocator,
          nodeInfo.node,
          s.toAllocate.map(
            (i) => (i === extIndex && ext.node ? ext.node.claim : s.claims[i]) as unknown as ClaimObject,
          ),
        );
      } catch (e) {
        if (e instanceof FailedOnNode) return Status.unresolvable(e.message);
        if (e instanceof AllocatorError) return Status.error(e.message);
        throw e;
      }
      if (!results || results.length !== s.toAllocate.length)
        return Status.unresolvable('cannot allocate all claims');
      if (unavailable.length === 0) {
        s.nodeAllocations.set(nodeInfo.name, results);
        if (ext.node) s.nodeExtendedClaims.set(nodeInfo.name, ext.node);
      }
    }
    if (unavailable.length > 0) {
      for (const i of unavailable) s.unavailableClaims.add(i);
      return Status.unresolvable('resourceclaim not available on the node');
    }
    return null;
  }

  /**
   * Upstream deallocates idle claims here; the replay has none to free. When an earlier
   * PreFilter rejected the pod, this plugin's PreFilter never ran and upstream fails reading its
   * state ("not found"), which ends PostFilter before preemption runs.
   */
  postFilter(
    state: CycleState,
    _pod: Pod,
    _statuses: NodeToStatusMap,
  ): { result?: PostFilterResult; status: MaybeStatus } {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    if (!s) return { status: Status.error('not found') };
    if (s.hasClaims) {
      // An unavailable allocated claim that no other pod holds is deallocated (upstream picks
      // one in map order; the first here).
      const written =
        s.extended && s.extended.claim.metadata?.name !== SPECIAL_CLAIM_NAME ? s.extended.claim : undefined;
      for (const i of [...s.unavailableClaims].sort((a, b) => a - b)) {
        const claim = s.claims[i];
        if (s.extended && claim === s.extended.claim) {
          if (written) break;
          continue;
        }
        const rf = statusOf(claim).reservedFor ?? [];
        if (rf.length === 0 || (rf.length === 1 && rf[0].uid === podUid(_pod))) {
          const status = { ...(claim.status ?? {}) } as Record<string, unknown>;
          delete status.allocation;
          delete status.reservedFor;
          delete status.devices;
          this.handle.objects.resourceClaims.set({ ...claim, status } as ResourceClaim);
          return { status: Status.unschedulable('deallocation of ResourceClaim completed') };
        }
      }
      // The pod's extended-resource claim from an earlier cycle is deleted, to start anew.
      if (written) {
        this.handle.objects.resourceClaims.delete(
          written.metadata?.namespace ?? 'default',
          written.metadata?.name ?? '',
        );
        return { status: Status.unschedulable('deletion of ResourceClaim completed') };
      }
      return {
        status: this.handle.features.behaviour.draPostFilterWithoutReason
          ? Status.unschedulable()
          : Status.unschedulable('still not schedulable'),
      };
    }
    return {
      status: this.handle.features.behaviour.draPostFilterWithoutReason
        ? Status.unschedulable()
        : Status.unschedulable('no new claims to deallocate'),
    };
  }

  /**
   * Records the allocations Filter computed for the node and the pod's reservation in the
   * simulated claims, as PreBind's API writes would, so later pods see the devices taken.
   */
  reserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    if (!s?.hasClaims) return null;
    const results = s.allocator ? s.nodeAllocations.get(nodeName) : [];
    // Only extended resources, which device plugins provide on this node: nothing to write.
    if (!results && s.userClaims === 0) return null;
    if (!results)
      return Status.error(
        `claims for pod ${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name} not allocated on node ${nodeName}`,
      );
    const store = this.handle.objects.resourceClaims;
    s.reserved = [];
    s.extendedPreBindError = undefined;
    let k = 0;
    for (const [i, original] of s.claims.entries()) {
      let claim = original;
      const toAllocate = s.toAllocate.includes(i);
      const allocation = toAllocate ? results[k++] : statusOf(claim).allocation;
      if (s.extended && original === s.extended.claim && toAllocate) {
        // The pod's extended-resource claim is written now (PreBind creates it through the API).
        const written = this.writeExtendedResourceClaim(s, original, pod, nodeName);
        claim = written.claim;
        if (written.created) {
          const status = { ...(claim.status ?? {}), allocation, reservedFor: [podReference(pod)] };
          const created = { ...claim, status } as ResourceClaim;
          store.set(created);
          s.reserved.push({ claim: created });
          continue;
        }
      }
      const status = statusOf(claim);
      const reservedFor = reservedForPod(claim, pod)
        ? status.reservedFor
        : [...(status.reservedFor ?? []), podReference(pod)];
      const updated = {
        ...claim,
        status: { ...(claim.status ?? {}), allocation, reservedFor },
      } as ResourceClaim;
      store.set(updated);
      s.reserved.push({ claim: updated, before: claim });
    }
    return null;
  }

  /**
   * The pod's extended-resource claim as PreBind writes it: the node's variant (its requests) under
   * the name the API server gives it, owned by the pod, with the scheduler's finalizer; the pod's
   * status then names it with the container mappings. Without mappings (the node's device plugins
   * provide every extended resource, the pod also has claims of its own) upstream's PreBind fails.
   */
  private writeExtendedResourceClaim(
    s: DynamicResourcesState,
    current: ResourceClaim,
    pod: Pod,
    nodeName: string,
  ): { claim: ResourceClaim; created: boolean } {
    const node = s.nodeExtendedClaims.get(nodeName);
    const source = node?.claim ?? current;
    if (current.metadata?.name !== SPECIAL_CLAIM_NAME) return { claim: current, created: false };
    const namespace = pod.metadata?.namespace ?? 'default';
    const name = extendedResourceClaimName(namespace, pod.metadata?.name ?? '');
    const claim = {
      ...source,
      metadata: {
        ...source.metadata,
        name,
        uid: `uid-resourceclaim-${namespace}-${name}`,
        finalizers: [CLAIM_FINALIZER],
      },
    } as ResourceClaim;
    const mappings = node?.mappings ?? [];
    if (mappings.length === 0)
      s.extendedPreBindError = `nil or empty request mappings, no update of pod ${namespace}/${pod.metadata?.name ?? ''} ExtendedResourceClaimStatus`;
    else s.extendedResourceClaimStatus = { requestMappings: mappings, resourceClaimName: name };
    return { claim, created: true };
  }

  unreserve(state: CycleState): void {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    const store = this.handle.objects.resourceClaims;
    for (const { claim, before } of s?.reserved ?? []) {
      if (before) store.set(before);
      else store.delete(claim.metadata?.namespace ?? 'default', claim.metadata?.name ?? '');
    }
    if (s) {
      s.reserved = undefined;
      s.extendedResourceClaimStatus = undefined;
    }
  }

  /**
   * With binding conditions upstream stamps the allocation's time and then waits (up to the binding
   * timeout) until the drivers report every binding condition of the allocated devices True. The
   * simulation has no driver: it takes the binding as succeeded and records the conditions True in
   * the claims' device status, so later pods sharing a claim find it ready.
   */
  preBind(state: CycleState): MaybeStatus {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    // The extended-resource claim's pod status update fails before any binding wait.
    if (s?.extendedPreBindError !== undefined) return Status.error(s.extendedPreBindError);
    if (!this.bindingConditions || !s?.reserved) return null;
    const now = this.nowMs();
    s.reserved = s.reserved.map(({ claim, before }) => {
      const bound = boundByDriver(claim, now);
      if (bound !== claim) this.handle.objects.resourceClaims.set(bound);
      return { claim: bound, before };
    });
    return null;
  }

  /**
   * From 1.35 (prioritized lists): per node, the sum over the pod's firstAvailable requests of
   * 8 − index of the subrequest allocated, normalized to 0–100. Pods without claims score 0.
   */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    if (!s?.hasClaims) return [0, null];
    const results = s.nodeAllocations.get(nodeInfo.name);
    if (!results) return [0, null];
    let score = 0;
    let k = 0;
    for (const [i, claim] of s.claims.entries()) {
      const allocation = s.toAllocate.includes(i) ? results[k++] : statusOf(claim).allocation;
      const allocated = new Set(
        (allocation?.devices?.results ?? []).map((r) => r.request).filter((r) => r.includes('/')),
      );
      for (const req of claim.spec?.devices?.requests ?? []) {
        if (req.exactly) continue;
        (req.firstAvailable ?? []).forEach((sub, j) => {
          if (allocated.has(`${req.name}/${sub.name}`)) score += FIRST_AVAILABLE_MAX_SIZE - j;
        });
      }
    }
    return [score, null];
  }

  /** Pods without claims score 0 on every node. */
  uniformScore(state: CycleState): UniformScore | undefined {
    return state.read<DynamicResourcesState>(STATE_KEY)?.hasClaims ? undefined : ZERO_SCORE;
  }

  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    for (let i = 0; i < scores.length; i++) scores[i].score = this.score(state, pod, nodes[i])[0];
    defaultNormalizeScore(100, false, scores);
    return null;
  }

  scoreExtensions(): undefined {
    return undefined;
  }
}

const ZERO_SCORE: UniformScore = Object.freeze({ raw: 0, score: 0 });

export const descriptor: PluginDescriptor<DynamicResourcesArgs> = {
  name: PluginNames.DynamicResources,
  argsKind: DYNAMIC_RESOURCES_ARGS_KIND,
  argsSince: DYNAMIC_RESOURCES_ARGS_SINCE,
  defaultArgs: defaultDynamicResourcesArgs,
  validateArgs: validateDynamicResourcesArgs,
  // Before 1.34 the args are undecoded (no kind): the plugin does not read them.
  create: (args, handle) =>
    new DynamicResources(
      handle,
      compareVersions(handle.features.version, DYNAMIC_RESOURCES_ARGS_SINCE) >= 0 ? args : undefined,
    ),
};
