/**
 * NodeResourcesFit (upstream noderesources/fit.go): Filter rejects nodes whose free allocatable
 * cannot hold the pod's requests; Score ranks nodes with the configured strategy.
 */
import { isExtendedResourceName, isScalarResourceName, podRequests, type Pod } from '@schedlab/k8s';
import type { Node } from '@schedlab/k8s';
import type { FeatureSet } from '../../../features';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  deletedPodOf,
  heldANode,
} from '../../events';
import type { CycleState, StateData } from '../../cycle-state';
import type {
  FilterPlugin,
  Handle,
  NodeScore,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  ScorePlugin,
} from '../../interface';
import { Status, type MaybeStatus } from '../../status';
import { StateSlot } from '../helper/state-slot';
import { NodeInfo, Resource } from '../../types';
import { PluginNames } from '../names';
import {
  LEAST_ALLOCATED,
  MOST_ALLOCATED,
  REQUESTED_TO_CAPACITY_RATIO,
  type NodeResourcesFitArgs,
} from './args';
import { draResourceTotals } from '../dynamicresources/extended-resource-scoring';
import { ResourceAllocationScorer, type ResourceScorer } from './resource-allocation';
import {
  DEVICE_CLASS_RESOURCE_PREFIX,
  draExtendedResourceEnabled,
  extendedResourceClasses,
} from '../dynamicresources/extended-resources';
import { leastAllocatedScorer, mostAllocatedScorer, requestedToCapacityRatioScorer } from './strategies';

export const PRE_FILTER_STATE_KEY = 'PreFilter' + PluginNames.NodeResourcesFit;
export const ERR_REASON_TOO_MANY_PODS = 'Too many pods';
export const ERR_REASON_INSUFFICIENT_CPU = 'Insufficient cpu';
export const ERR_REASON_INSUFFICIENT_MEMORY = 'Insufficient memory';
export const ERR_REASON_INSUFFICIENT_EPHEMERAL_STORAGE = 'Insufficient ephemeral-storage';

export function insufficientReason(resourceName: string): string {
  return `Insufficient ${resourceName}`;
}

/** The pod's requests as the fit check counts them (missing requests are 0); never mutated. */
export class FitPreFilterState implements StateData {
  constructor(readonly request: Resource) {}
  clone(): StateData {
    return this;
  }
}

export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

/** Fit-check requests of a pod: effective container/init-container requests plus overhead. */
export function computePodResourceRequest(pod: Pod, skipPodLevelResources = false): Resource {
  const r = new Resource();
  for (const [name, v] of podRequests(pod, { skipPodLevelResources })) {
    // Like upstream's Resource.Add, unknown non-scalar names are not tracked; `pods` is not a request.
    if (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || isScalarResourceName(name))
      r.set(name, v);
  }
  return r;
}

/**
 * Every resource the node lacks for the pod, in upstream's order: pods, cpu, memory,
 * ephemeral-storage, then scalar resources.
 */
export function fitsRequest(
  podRequest: Resource,
  nodeInfo: NodeInfo,
  ignoredExtendedResources: ReadonlySet<string>,
  ignoredResourceGroups: ReadonlySet<string>,
  onlyRequested: boolean,
  /** DRAExtendedResource: a resource left to DynamicResources (a class maps it). */
  mappedToDeviceClass?: (resourceName: string) => boolean,
): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  const allowedPods = alloc.allowedPodNumber;
  if (nodeInfo.pods.length + 1 > allowedPods) {
    out.push({
      resourceName: 'pods',
      reason: ERR_REASON_TOO_MANY_PODS,
      requested: 1,
      used: nodeInfo.pods.length,
      capacity: allowedPods,
    });
  }
  if (
    podRequest.milliCPU === 0 &&
    podRequest.memory === 0 &&
    podRequest.ephemeralStorage === 0 &&
    podRequest.scalar.size === 0
  ) {
    return out;
  }
  // v1.26 compares even a zero request, so an over-committed node fails it; from 1.28 only requested resources are checked.
  if ((!onlyRequested || podRequest.milliCPU > 0) && podRequest.milliCPU > alloc.milliCPU - used.milliCPU) {
    out.push({
      resourceName: 'cpu',
      reason: ERR_REASON_INSUFFICIENT_CPU,
      requested: podRequest.milliCPU,
      used: used.milliCPU,
      capacity: alloc.milliCPU,
    });
  }
  if ((!onlyRequested || podRequest.memory > 0) && podRequest.memory > alloc.memory - used.memory) {
    out.push({
      resourceName: 'memory',
      reason: ERR_REASON_INSUFFICIENT_MEMORY,
      requested: podRequest.memory,
      used: used.memory,
      capacity: alloc.memory,
    });
  }
  if (
    (!onlyRequested || podRequest.ephemeralStorage > 0) &&
    podRequest.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage
  ) {
    out.push({
      resourceName: 'ephemeral-storage',
      reason: ERR_REASON_INSUFFICIENT_EPHEMERAL_STORAGE,
      requested: podRequest.ephemeralStorage,
      used: used.ephemeralStorage,
      capacity: alloc.ephemeralStorage,
    });
  }
  for (const [name, quant] of podRequest.scalar) {
    if (quant === 0) continue;
    if (isExtendedResourceName(name)) {
      if (ignoredExtendedResources.has(name)) continue;
      if (ignoredResourceGroups.size > 0 && ignoredResourceGroups.has(name.split('/')[0])) continue;
    }
    const a = alloc.scalar.get(name) ?? 0;
    // Not advertised by a device plugin here but mapped to a device class: DRA provides it.
    if (a <= 0 && mappedToDeviceClass?.(name)) continue;
    const u = used.scalar.get(name) ?? 0;
    if (quant > a - u)
      out.push({
        resourceName: name,
        reason: insufficientReason(name),
        requested: quant,
        used: u,
        capacity: a,
      });
  }
  return out;
}

/**
 * Allocation-free fast path of fitsRequest for the common pod (no scalar requests) on a node with
 * room: true only when fitsRequest would find nothing insufficient. Comparisons are the 1.26 ones
 * (zero requests compared too), which imply the 1.28 ones.
 */
function fitsCpuMemoryOnly(podRequest: Resource, nodeInfo: NodeInfo): boolean {
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  return (
    podRequest.scalar.size === 0 &&
    nodeInfo.pods.length + 1 <= alloc.allowedPodNumber &&
    podRequest.milliCPU <= alloc.milliCPU - used.milliCPU &&
    podRequest.memory <= alloc.memory - used.memory &&
    podRequest.ephemeralStorage <= alloc.ephemeralStorage - used.ephemeralStorage
  );
}

/** Upstream's exported Fits(): the fit check without ignored resources. */
export function fits(pod: Pod, nodeInfo: NodeInfo, features: FeatureSet): InsufficientResource[] {
  return fitsRequest(
    computePodResourceRequest(pod, !features.enabled('PodLevelResources')),
    nodeInfo,
    new Set(),
    new Set(),
    features.behaviour.fitChecksOnlyRequestedResources,
  );
}

function strategyScorer(args: NodeResourcesFitArgs): ResourceScorer {
  const s = args.scoringStrategy;
  switch (s.type) {
    case LEAST_ALLOCATED:
      return leastAllocatedScorer;
    case MOST_ALLOCATED:
      return mostAllocatedScorer;
    case REQUESTED_TO_CAPACITY_RATIO:
      return requestedToCapacityRatioScorer(s.requestedToCapacityRatio?.shape ?? []);
    default:
      throw new Error(`scoring strategy ${s.type} is not supported`);
  }
}

/** Whether the node's allocatable grew in pods, or in a resource the pod requests. */
function haveAnyRequestedResourcesIncreased(
  request: Resource,
  original: Resource,
  modified: Resource,
  mappedToDeviceClass?: (resourceName: string) => boolean,
): boolean {
  if (modified.allowedPodNumber > original.allowedPodNumber) return true;
  if (
    request.milliCPU === 0 &&
    request.memory === 0 &&
    request.ephemeralStorage === 0 &&
    request.scalar.size === 0
  )
    return false;
  if (
    (request.milliCPU > 0 && modified.milliCPU > original.milliCPU) ||
    (request.memory > 0 && modified.memory > original.memory) ||
    (request.ephemeralStorage > 0 && modified.ephemeralStorage > original.ephemeralStorage)
  )
    return true;
  for (const [name, v] of request.scalar) {
    if (v === 0) continue;
    if (modified.get(name) > original.get(name)) return true;
    // A resource DRA provides on the node may have devices now.
    if ((modified.scalar.get(name) ?? 0) <= 0 && mappedToDeviceClass?.(name)) return true;
  }
  return false;
}

export class Fit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
  readonly name = PluginNames.NodeResourcesFit;
  private readonly ignoredResources: ReadonlySet<string>;
  private readonly ignoredResourceGroups: ReadonlySet<string>;
  private readonly scorer: ResourceAllocationScorer;
  private readonly onlyRequested: boolean;
  /** Score has no PreScore in v1.26; the pod's request vector is cached for the whole scoring pass. */

  constructor(
    args: NodeResourcesFitArgs,
    private readonly handle: Handle,
  ) {
    this.ignoredResources = new Set(args.ignoredResources);
    this.ignoredResourceGroups = new Set(args.ignoredResourceGroups);
    this.scorer = new ResourceAllocationScorer(
      args.scoringStrategy.resources,
      strategyScorer(args),
      false,
      true,
    );
    this.onlyRequested = handle.features.behaviour.fitChecksOnlyRequestedResources;
    if (draExtendedResourceEnabled(handle.features))
      this.mappedToDeviceClass = (name) => extendedResourceClasses(handle.objects.deviceClasses).has(name);
  }

  /** DRAExtendedResource: whether a DeviceClass maps the resource (DynamicResources then provides it). */
  private readonly mappedToDeviceClass?: (resourceName: string) => boolean;

  /**
   * A deleted pod frees resources; a new node or more allocatable may fit the pod; with in-place
   * resize, a running pod scaled down frees some, and the pending pod scaled down needs less.
   */
  eventsToRegister(): ClusterEventWithHint[] {
    const events: ClusterEventWithHint[] = [
      {
        event: { resource: 'AssignedPod', actionType: ActionType.Delete },
        queueingHintFn: (pod, oldObj) => this.isSchedulableAfterAssignedPodDelete(pod, oldObj),
      },
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeAllocatable },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
    if (this.mappedToDeviceClass)
      events.push({
        event: { resource: 'resource.k8s.io/DeviceClass', actionType: ActionType.Add | ActionType.Update },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterDeviceClassEvent(pod, oldObj, newObj),
      });
    if (this.handle.features.enabled('InPlacePodVerticalScaling')) {
      events.push(
        {
          event: { resource: 'AssignedPod', actionType: ActionType.UpdatePodScaleDown },
          queueingHintFn: (pod, oldObj, newObj) =>
            this.isSchedulableAfterAssignedPodScaleDown(pod, oldObj, newObj),
        },
        {
          event: { resource: 'TargetPod', actionType: ActionType.UpdatePodScaleDown },
          queueingHintFn: () => QueueingHint.Queue,
        },
      );
    }
    return events;
  }

  /**
   * A class added under the implicit name of a resource the pod requests, or whose
   * extendedResourceName is one the pod requests (and changed), may provide it.
   */
  isSchedulableAfterDeviceClassEvent(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    type Cls = { metadata?: { name?: string }; spec?: { extendedResourceName?: string } };
    const [original, modified] = asObjects<Cls>(oldObj, newObj);
    if (!modified) return QueueingHint.QueueSkip;
    const requests = podRequests(pod);
    if (original) {
      if ((original.spec?.extendedResourceName ?? '') === (modified.spec?.extendedResourceName ?? ''))
        return QueueingHint.QueueSkip;
    } else if (requests.has(DEVICE_CLASS_RESOURCE_PREFIX + (modified.metadata?.name ?? ''))) {
      return QueueingHint.Queue;
    }
    const explicit = modified.spec?.extendedResourceName;
    return explicit !== undefined && requests.has(explicit) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** Only a pod that was on a node (or nominated to one) frees anything. */
  isSchedulableAfterAssignedPodDelete(_pod: Pod, oldObj: unknown): QueueingHint {
    return heldANode(deletedPodOf(oldObj, undefined)) ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** Queue when a running pod gave back some of a resource the pending pod requests. */
  isSchedulableAfterAssignedPodScaleDown(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Pod>(oldObj, newObj);
    if (!original || !modified) throw new Error('a pod update needs the old and the new pod');
    if (!modified.spec?.nodeName) return QueueingHint.QueueSkip;
    const before = podRequests(original);
    const after = podRequests(modified);
    for (const [name, v] of podRequests(pod)) {
      if (v === 0) continue;
      const tracked =
        name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || isScalarResourceName(name);
      if (tracked && (before.get(name) ?? 0) > (after.get(name) ?? 0)) return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }

  /** Queue when the pod fits the (empty) node and, for an update, a resource it requests grew. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    const request = computePodResourceRequest(pod, !this.handle.features.enabled('PodLevelResources'));
    const modifiedInfo = new NodeInfo(modified);
    if (
      fitsRequest(request, modifiedInfo, new Set(), new Set(), this.onlyRequested, this.mappedToDeviceClass)
        .length > 0
    )
      return QueueingHint.QueueSkip;
    if (!original) return QueueingHint.Queue;
    return haveAnyRequestedResourcesIncreased(
      request,
      new NodeInfo(original).allocatable,
      modifiedInfo.allocatable,
      this.mappedToDeviceClass,
    )
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    // From 1.28, with SidecarContainers off, a pod with a restartable init container is refused.
    const features = this.handle.features;
    if (
      features.behaviour.fitRejectsSidecarsWithoutGate &&
      !features.enabled('SidecarContainers') &&
      (pod.spec?.initContainers ?? []).some((c) => c.restartPolicy === 'Always')
    ) {
      return {
        status: Status.unresolvable(
          'Pod has a restartable init container and the SidecarContainers feature is disabled',
        ),
      };
    }
    this.preFilterState.write(
      state,
      new FitPreFilterState(
        computePodResourceRequest(pod, !this.handle.features.enabled('PodLevelResources')),
      ),
    );
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  private readonly preFilterState = new StateSlot<FitPreFilterState>(PRE_FILTER_STATE_KEY);

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = this.preFilterState.read(state);
    if (!(s instanceof FitPreFilterState)) {
      return Status.error(`error reading "${PRE_FILTER_STATE_KEY}" from cycleState: not found`);
    }
    if (fitsCpuMemoryOnly(s.request, nodeInfo)) return null;
    const insufficient = fitsRequest(
      s.request,
      nodeInfo,
      this.ignoredResources,
      this.ignoredResourceGroups,
      this.onlyRequested,
      this.mappedToDeviceClass,
    );
    if (insufficient.length === 0) return null;
    // From 1.34 a request larger than the node's whole allocatable cannot be helped by preemption.
    const beyondAllocatable =
      this.handle.features.behaviour.fitUnresolvableBeyondAllocatable &&
      insufficient.some((r) => r.resourceName !== 'pods' && r.requested > r.capacity);
    return this.failure(beyondAllocatable, insufficient);
  }

  /**
   * Failures with the same code and reasons share one Status (thousands of nodes fail a pod the
   * same way): statuses are read-only once made, and the framework names this plugin on all.
   */
  private readonly failures = new Map<string, Status>();

  private failure(unresolvable: boolean, insufficient: readonly InsufficientResource[]): Status {
    let key = unresolvable ? 'U' : 'u';
    for (const r of insufficient) key += `\u0000${r.reason}`;
    let status = this.failures.get(key);
    if (status === undefined) {
      const reasons = insufficient.map((r) => r.reason);
      status = unresolvable ? Status.unresolvable(...reasons) : Status.unschedulable(...reasons);
      if (this.failures.size < 1024) this.failures.set(key, status);
    }
    return status;
  }

  /**
   * Registered at PreScore from 1.27, where upstream precomputes the pod's request vector there.
   * Scores do not change: the request vector is computed once per pod either way.
   */
  preScore(_state: CycleState, _pod: Pod, _nodes: NodeInfo[]): MaybeStatus {
    return null;
  }

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const requests = this.scorer.requestsOf(pod, this.handle.features);
    return [
      this.scorer.score(nodeInfo, requests, draResourceTotals(this.handle, this.scorer.resources)),
      null,
    ];
  }

  scoreNodes(_state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const dra = draResourceTotals(this.handle, this.scorer.resources);
    this.scorer.scoreNodes(pod, nodes, scores, this.handle.features, dra);
    return null;
  }

  scoreExtensions(): undefined {
    return undefined;
  }
}
