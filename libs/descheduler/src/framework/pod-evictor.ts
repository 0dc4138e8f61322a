/**
 * Evictions for one descheduling cycle, shared by every profile (upstream's PodEvictor): the
 * limits are checked total, then per node, then per namespace, before the eviction API's
 * PodDisruptionBudget check; an evicted pod leaves the view at once.
 */
import { type KubeObject, type Pod, namespaceOf } from '@schedlab/k8s';
import type { ClusterView } from './cluster-view';
import { DisruptionBudgets } from './disruption-budgets';
import type { EvictOptions, EvictionRefusal } from './types';

export interface EvictionLimits {
  maxNoOfPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  maxNoOfPodsToEvictTotal?: number;
}

/** One eviction, in the order it happened. */
export interface Eviction {
  /** `namespace/name` */
  pod: string;
  namespace: string;
  name: string;
  node: string;
  profile: string;
  /** `deschedule` or `balance`: the extension point that ran the strategy. */
  extensionPoint: ExtensionPoint;
  strategy: string;
  /** The reason the descheduler's event gives: the plugin's reason, else the strategy's name. */
  reason: string;
  /** What the plugin saw, when it says (e.g. the taint not tolerated). */
  detail?: string;
}

/** An eviction a plugin asked for and a limit or a PodDisruptionBudget refused. */
export interface RefusedEviction {
  pod: string;
  node: string;
  profile: string;
  strategy: string;
  refusal: EvictionRefusal;
  /** The descheduler's (or the eviction API's) words. */
  message: string;
}

export type ExtensionPoint = 'deschedule' | 'balance';

export const LIMIT_MESSAGES = {
  'node-limit': 'maximum number of evicted pods per node reached',
  'namespace-limit': 'maximum number of evicted pods per namespace reached',
  'total-limit': 'maximum number of evicted pods per a descheduling cycle reached',
} as const;

export class PodEvictor {
  readonly evictions: Eviction[] = [];
  readonly refused: RefusedEviction[] = [];
  private readonly perNode = new Map<string, number>();
  private readonly perNamespace = new Map<string, number>();
  private readonly budgets: DisruptionBudgets;

  constructor(
    private readonly view: ClusterView,
    objects: readonly KubeObject[],
    readonly limits: EvictionLimits,
  ) {
    this.budgets = new DisruptionBudgets(objects, view);
  }

  get total(): number {
    return this.evictions.length;
  }

  nodeLimitExceeded(nodeName: string): boolean {
    const max = this.limits.maxNoOfPodsToEvictPerNode;
    return max !== undefined && (this.perNode.get(nodeName) ?? 0) >= max;
  }

  totalLimitExceeded(): boolean {
    const max = this.limits.maxNoOfPodsToEvictTotal;
    return max !== undefined && this.total >= max;
  }

  private namespaceLimitExceeded(ns: string): boolean {
    const max = this.limits.maxNoOfPodsToEvictPerNamespace;
    return max !== undefined && (this.perNamespace.get(ns) ?? 0) >= max;
  }

  /** Evicts the pod or says why not. */
  evict(
    pod: Pod,
    options: EvictOptions,
    profile: string,
    extensionPoint: ExtensionPoint,
  ): EvictionRefusal | undefined {
    const node = pod.spec?.nodeName ?? '';
    const ns = namespaceOf(pod);
    const refuse = (refusal: EvictionRefusal, message: string) => {
      this.refused.push({
        pod: `${ns}/${pod.metadata?.name ?? ''}`,
        node,
        profile,
        strategy: options.strategy,
        refusal,
        message,
      });
      return refusal;
    };
    if (this.view.isEvicted(pod)) return undefined;
    if (this.totalLimitExceeded()) return refuse('total-limit', LIMIT_MESSAGES['total-limit']);
    if (node && this.nodeLimitExceeded(node)) return refuse('node-limit', LIMIT_MESSAGES['node-limit']);
    if (this.namespaceLimitExceeded(ns)) return refuse('namespace-limit', LIMIT_MESSAGES['namespace-limit']);
    const verdict = this.budgets.check(pod);
    if (!verdict.allowed) return refuse(verdict.refusal, verdict.message);
    this.view.markEvicted(pod);
    if (node) this.perNode.set(node, (this.perNode.get(node) ?? 0) + 1);
    this.perNamespace.set(ns, (this.perNamespace.get(ns) ?? 0) + 1);
    this.evictions.push({
      pod: `${ns}/${pod.metadata?.name ?? ''}`,
      namespace: ns,
      name: pod.metadata?.name ?? '',
      node,
      profile,
      extensionPoint,
      strategy: options.strategy,
      reason: options.reason || options.strategy || 'NotSet',
      ...(options.detail ? { detail: options.detail } : {}),
    });
    return undefined;
  }
}
