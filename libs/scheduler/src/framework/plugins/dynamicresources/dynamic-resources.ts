/**
 * DynamicResources (upstream plugins/dynamicresources), as far as Schedlab models DRA: a pod's
 * spec.resourceClaims must resolve to existing ResourceClaims before it is scheduled; a claim
 * already allocated keeps the pod on the nodes its allocation selects; a claim still to allocate
 * needs its device classes to exist and a node that publishes devices (a ResourceSlice). Which
 * devices would be picked (CEL selectors, counts, sharing) is not modelled: a node with devices
 * is taken to satisfy the claims.
 */
import { compileNodeSelector, type CompiledNodeSelector, type Pod } from '@schedlab/k8s';
import type { ResourceClaim } from '../../../backend/cache/cluster-objects';
import type { CycleState, StateData } from '../../cycle-state';
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
} from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';

interface PodResourceClaim {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

interface PodClaimStatus {
  name: string;
  resourceClaimName?: string;
}

/**
 * The pod's claims, or why they cannot be used yet in upstream's words. A template whose claim
 * the controller deliberately did not generate is skipped.
 */
export function resolvePodClaims(pod: Pod, handle: Handle): { claims: ResourceClaim[]; reason?: string } {
  const spec = pod.spec as { resourceClaims?: PodResourceClaim[] } | undefined;
  const claims: ResourceClaim[] = [];
  const namespace = pod.metadata?.namespace ?? 'default';
  const podRef = `${namespace}/${pod.metadata?.name ?? ''}`;
  const statuses =
    (pod.status as { resourceClaimStatuses?: PodClaimStatus[] } | undefined)?.resourceClaimStatuses ?? [];
  for (const c of spec?.resourceClaims ?? []) {
    let claimName: string | undefined;
    if (c.resourceClaimName) {
      claimName = c.resourceClaimName;
    } else if (c.resourceClaimTemplateName) {
      const generated = statuses.find((s) => s.name === c.name);
      if (!generated) return { claims, reason: `pod "${podRef}": ResourceClaim not created yet` };
      if (!generated.resourceClaimName) continue;
      claimName = generated.resourceClaimName;
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

const STATE_KEY = PluginNames.DynamicResources;

/** Written by PreFilter: the allocated claims' node selectors and whether any claim needs allocating. */
class DynamicResourcesState implements StateData {
  constructor(
    readonly hasClaims: boolean,
    readonly allocatedOn: readonly CompiledNodeSelector[] = [],
    readonly toAllocate = 0,
  ) {}
  clone(): StateData {
    return this;
  }
}

export class DynamicResources
  implements
    PreEnqueuePlugin,
    PreFilterPlugin,
    FilterPlugin,
    PostFilterPlugin,
    ReservePlugin,
    PreBindPlugin,
    ScorePlugin
{
  readonly name = PluginNames.DynamicResources;

  constructor(private readonly handle: Handle) {}

  preEnqueue(pod: Pod): MaybeStatus {
    const reason = unresolvedClaimReason(pod, this.handle);
    return reason === undefined ? null : Status.unresolvable(reason);
  }

  /**
   * Skip for pods without claims, as upstream. Otherwise the claims must exist, allocated ones
   * contribute their node selectors, and the classes of those still to allocate must exist.
   */
  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const podClaims = (pod.spec as { resourceClaims?: unknown[] } | undefined)?.resourceClaims ?? [];
    state.write(STATE_KEY, new DynamicResourcesState(false));
    if (podClaims.length === 0) return { status: Status.skip() };
    const { claims, reason } = resolvePodClaims(pod, this.handle);
    if (reason !== undefined) return { status: Status.unresolvable(reason) };
    if (claims.length === 0) return { status: Status.skip() };
    const allocatedOn: CompiledNodeSelector[] = [];
    let toAllocate = 0;
    for (const claim of claims) {
      const allocation = claim.status?.allocation;
      if (allocation) {
        if (allocation.nodeSelector) allocatedOn.push(compileNodeSelector(allocation.nodeSelector));
        continue;
      }
      toAllocate++;
      const why = unallocatableReason(claim, this.handle);
      if (why) return { status: Status.unresolvable(why) };
    }
    state.write(STATE_KEY, new DynamicResourcesState(true, allocatedOn, toAllocate));
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  /**
   * Claims to allocate need devices on the node (a ResourceSlice for it); allocated claims need
   * their allocation's node selector to match. Upstream's messages and order.
   */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    if (!s?.hasClaims) return null;
    if (s.toAllocate > 0 && !this.nodeHasDevices(nodeInfo)) {
      return Status.unresolvable('cannot allocate all claims');
    }
    for (const selector of s.allocatedOn) {
      if (!selector.match(nodeInfo.node))
        return Status.unresolvable('resourceclaim not available on the node');
    }
    return null;
  }

  private nodeHasDevices(nodeInfo: NodeInfo): boolean {
    for (const slice of this.handle.objects.resourceSlices.list()) {
      const spec = slice.spec;
      if ((spec?.devices ?? []).length === 0) continue;
      if (spec?.allNodes || spec?.nodeName === nodeInfo.name) return true;
      if (spec?.nodeSelector && compileNodeSelector(spec.nodeSelector).match(nodeInfo.node)) return true;
    }
    return false;
  }

  /**
   * Upstream deallocates idle claims here; with no allocations modelled there is nothing to free.
   * When an earlier PreFilter rejected the pod, this plugin's PreFilter never ran and upstream
   * fails reading its state ("not found"), which ends PostFilter before preemption runs.
   */
  postFilter(
    state: CycleState,
    _pod: Pod,
    _statuses: NodeToStatusMap,
  ): { result?: PostFilterResult; status: MaybeStatus } {
    const s = state.read<DynamicResourcesState>(STATE_KEY);
    if (!s) return { status: Status.error('not found') };
    // With claims upstream may deallocate idle ones; nothing is allocated by this model.
    if (s.hasClaims) return { status: Status.unschedulable() };
    return {
      status: this.handle.features.behaviour.draPostFilterWithoutReason
        ? Status.unschedulable()
        : Status.unschedulable('no new claims to deallocate'),
    };
  }

  reserve(): MaybeStatus {
    return null;
  }

  unreserve(): void {
    // Nothing was reserved: claims are not written back in this model.
  }

  preBind(): MaybeStatus {
    return null;
  }

  /**
   * From 1.35 a Score plugin (prioritized device lists) without a PreScore: pods without claims
   * score 0 everywhere, which normalizes to 0.
   */
  score(_state: CycleState, _pod: Pod, _nodeInfo: NodeInfo): [number, MaybeStatus] {
    return [0, null];
  }

  scoreNodes(_state: CycleState, _pod: Pod, _nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    for (const s of scores) s.score = 0;
    return null;
  }

  scoreExtensions(): undefined {
    return undefined;
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.DynamicResources,
  create: (_args, handle) => new DynamicResources(handle),
};
