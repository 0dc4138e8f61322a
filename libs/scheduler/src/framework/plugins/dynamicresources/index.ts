/**
 * DynamicResources (upstream plugins/dynamicresources), as far as Schedlab models DRA: a pod's
 * spec.resourceClaims must resolve to existing ResourceClaims before it is scheduled. Device
 * allocation itself (slices, classes, CEL selectors) is not modelled: a pod whose claims all
 * exist is scheduled as if the claims imposed nothing.
 */
import type { Pod } from '@schedlab/k8s';
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
 * Why the pod's claims cannot be used yet, in upstream's words, or undefined when every claim
 * exists (or, for a template whose claim was deliberately not generated, is skipped).
 */
export function unresolvedClaimReason(pod: Pod, handle: Handle): string | undefined {
  const spec = pod.spec as { resourceClaims?: PodResourceClaim[] } | undefined;
  const claims = spec?.resourceClaims ?? [];
  if (claims.length === 0) return undefined;
  const namespace = pod.metadata?.namespace ?? 'default';
  const podRef = `${namespace}/${pod.metadata?.name ?? ''}`;
  const statuses =
    (pod.status as { resourceClaimStatuses?: PodClaimStatus[] } | undefined)?.resourceClaimStatuses ?? [];
  for (const c of claims) {
    let claimName: string | undefined;
    if (c.resourceClaimName) {
      claimName = c.resourceClaimName;
    } else if (c.resourceClaimTemplateName) {
      const generated = statuses.find((s) => s.name === c.name);
      if (!generated) return `pod "${podRef}": ResourceClaim not created yet`;
      // The claim controller may decide a template needs no claim: then there is nothing to check.
      if (!generated.resourceClaimName) continue;
      claimName = generated.resourceClaimName;
    } else {
      return `pod "${podRef}", spec.resourceClaim "${c.name}": none of the supported fields are set`;
    }
    const claim = handle.objects.resourceClaims.get(namespace, claimName);
    if (!claim) return `could not find ResourceClaim "${namespace}/${claimName}"`;
    if (claim.metadata?.deletionTimestamp) return `resourceclaim "${claimName}" is being deleted`;
  }
  return undefined;
}

const STATE_KEY = PluginNames.DynamicResources;

/** Written by PreFilter: whether the pod has claims. */
class DynamicResourcesState implements StateData {
  constructor(readonly hasClaims: boolean) {}
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

  /** Skip for pods without claims, as upstream; a claim that vanished since PreEnqueue rejects the pod. */
  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    const claims = (pod.spec as { resourceClaims?: unknown[] } | undefined)?.resourceClaims ?? [];
    state.write(STATE_KEY, new DynamicResourcesState(claims.length > 0));
    if (claims.length === 0) return { status: Status.skip() };
    const reason = unresolvedClaimReason(pod, this.handle);
    return { status: reason === undefined ? null : Status.unresolvable(reason) };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filter(): MaybeStatus {
    return null;
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
    if (!state.read<DynamicResourcesState>(STATE_KEY)) return { status: Status.error('not found') };
    return {
      status: this.handle.features.behaviour.draPostFilterWithoutReason
        ? Status.unschedulable()
        : Status.unschedulable('no new claims to deallocate'),
    };
  }

  reserve(): MaybeStatus {
    return null;
  }

  unreserve(): void {}

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
